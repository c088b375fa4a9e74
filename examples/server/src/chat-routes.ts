// The AI SDK's chat protocol on top of Lathe sessions: `useChat`'s default transport posts
// `{ id, messages, trigger, messageId }` and reads a UI message stream (server-sent events with the
// `x-vercel-ai-ui-message-stream: v1` header). The chat id is the Lathe session id (or opens one).
import type { Hono } from "hono";
import { createUIMessageStreamResponse, type UIMessage } from "ai";
import { z } from "zod";
import { InvalidInputError, SessionNotFoundError, replyToUIApprovals, toUIMessageStream, toUIMessages, type Agent } from "@lathe/core";
import { readBody } from "./body.ts";

const ChatRequest = z.object({
  id: z.string().min(1),
  messages: z.array(z.looseObject({ id: z.string(), role: z.enum(["system", "user", "assistant"]), parts: z.array(z.looseObject({ type: z.string() })) })),
  trigger: z.enum(["submit-message", "regenerate-message"]).default("submit-message"),
  messageId: z.string().optional(),
});

const Approvals = z.object({
  approvals: z.array(z.object({ id: z.string(), approved: z.boolean(), reason: z.string().optional() })),
});

/** The text a user typed in a UI message. */
function promptText(message: UIMessage): string {
  return message.parts.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("\n");
}

/**
 * Adds the chat routes: `POST /chat` (also at `/api/chat`, `DefaultChatTransport`'s default),
 * `GET /chat/:id/messages`, `POST /chat/:id/approvals`.
 */
export function addChatRoutes(app: Hono, agent: Agent): void {
  // useChat makes up an id for a new chat: the first message to it opens a session, remembered
  // here (and in the session's metadata) for the chat's next messages.
  const chats = new Map<string, string>();
  const sessionOf = async (chatID: string, title: string): Promise<string> => {
    if (await agent.sessions.get(chatID)) return chatID;
    let sessionID = chats.get(chatID);
    if (!sessionID) {
      sessionID = (await agent.sessions.create({ title: title.slice(0, 80), metadata: { chatID } })).id;
      chats.set(chatID, sessionID);
    }
    return sessionID;
  };
  /** The session of a chat that has one. */
  const existingSessionOf = async (chatID: string): Promise<string> => {
    if (await agent.sessions.get(chatID)) return chatID;
    const sessionID = chats.get(chatID);
    if (!sessionID) throw new SessionNotFoundError(chatID);
    return sessionID;
  };

  // A new user message starts a run; its answer streams back. Approval responses in the posted
  // messages (useChat's addToolApprovalResponse) are answered first, whatever the message. The
  // chat id is a Lathe session id, or any other id, which then names a session of its own.
  app.on("POST", ["/chat", "/api/chat"], async (c) => {
    const request = await readBody(c, ChatRequest);
    const messages = request.messages as unknown as UIMessage[];
    // Answers count only for the chat's own session (and its subagents'): a new chat has none to answer.
    const known = await existingSessionOf(request.id).catch(() => undefined);
    if (known) await replyToUIApprovals(agent, known, messages);
    const last = messages.at(-1);
    if (request.trigger !== "submit-message" || last?.role !== "user") {
      // Nothing new to answer: the approvals were the message. The run they belong to streams to
      // the request that started it; this one ends at once.
      return createUIMessageStreamResponse({ stream: finishedStream(last?.role === "assistant" ? last.id : undefined) });
    }
    const text = promptText(last);
    if (text.trim() === "") throw new InvalidInputError("The last message has no text.");
    const run = agent.prompt(await sessionOf(request.id, text), text);
    // useChat's stop() ends the request: stop the run with it.
    c.req.raw.signal.addEventListener("abort", () => run.abort("the chat client stopped"), { once: true });
    return createUIMessageStreamResponse({ stream: toUIMessageStream(run) });
  });

  // The session's history as useChat's initial messages, waiting approvals included.
  app.get("/chat/:id/messages", async (c) => {
    const id = await existingSessionOf(c.req.param("id"));
    return c.json(toUIMessages(await agent.sessions.messages(id), { pending: await agent.permissions.pending(id) }));
  });

  // Answers approvals while the answer is streaming (useChat sends nothing until the stream ends).
  app.post("/chat/:id/approvals", async (c) => {
    const id = await existingSessionOf(c.req.param("id"));
    const { approvals } = await readBody(c, Approvals);
    return c.json(await replyToUIApprovals(agent, id, approvals));
  });
}

function finishedStream(messageId: string | undefined) {
  return new ReadableStream({
    start(controller) {
      controller.enqueue({ type: "start", ...(messageId ? { messageId } : {}) });
      controller.enqueue({ type: "finish" });
      controller.close();
    },
  });
}
