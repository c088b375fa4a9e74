// The AI SDK's chat protocol on top of Lathe sessions: `useChat`'s default transport posts
// `{ id, messages, trigger, messageId }` and reads a UI message stream (server-sent events with the
// `x-vercel-ai-ui-message-stream: v1` header); with `resume: true` it asks GET /chat/:id/stream for
// the run in progress. The chat id is the Lathe session id (or opens one). A client that leaves
// stops reading, never the run: POST /sessions/:id/abort stops it.
import type { Hono } from "hono";
import { createUIMessageStreamResponse, type UIMessage } from "ai";
import { z } from "zod";
import { ApprovalScopeError, InvalidInputError, NotFoundError, SessionNotFoundError, replyToUIApprovals, toUIMessageStream, toUIMessages, type Agent } from "@lathe/core";
import type { TurnQueue } from "@lathe/queue";
import { readBody } from "./body.ts";
import { ForeignApprovalError, ownRequests, scopedPermissions } from "./approval-scope.ts";
import { rejoinQueuedRun } from "./queue-routes.ts";
import { BusyMessage, sendBusyMessage } from "./busy-messages.ts";

const ChatRequest = z.object({
  id: z.string().min(1),
  messages: z.array(z.looseObject({ id: z.string(), role: z.enum(["system", "user", "assistant"]), parts: z.array(z.looseObject({ type: z.string() })) })),
  trigger: z.enum(["submit-message", "regenerate-message"]).default("submit-message"),
  messageId: z.string().optional(),
});

const Approvals = z.strictObject({
  approvals: z.array(
    z.strictObject({
      id: z.string(),
      approved: z.boolean(),
      /** With a rejection: feedback the model reads. */
      reason: z.string().min(1).optional(),
      /** With an approval: allow it for the rest of the session (the request's `always` patterns). */
      always: z.boolean().optional(),
    }),
  ),
});

/** What the chat routes need besides the agent. */
export interface ChatRoutesOptions {
  agent: Agent;
  /** Called after approvals of a session were answered (a turn left by a restart is resumed). */
  afterReply: (sessionID: string) => Promise<void>;
  /** Worker mode: runs are rejoined from the queue's event log. */
  queue?: TurnQueue;
}

/** The text a user typed in a UI message. */
function promptText(message: UIMessage): string {
  return message.parts.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("\n");
}

/**
 * Adds the chat routes: `POST /chat` (also at `/api/chat`, `DefaultChatTransport`'s default),
 * `GET /chat/:id/stream`, `GET /chat/:id/messages`, `POST /chat/:id/messages`, `POST /chat/:id/approvals`.
 */
export function addChatRoutes(app: Hono, { agent, afterReply, queue }: ChatRoutesOptions): void {
  // useChat makes up an id for a new chat: the first message to it opens a session, remembered
  // here (and in the session's metadata) for the chat's next messages.
  const chats = new Map<string, string>();
  const sessionOf = async (chatID: string): Promise<string> => {
    if (await agent.sessions.get(chatID)) return chatID;
    let sessionID = chats.get(chatID);
    if (!sessionID) {
      // No title: the title generator names it from the first prompt.
      sessionID = (await agent.sessions.create({ metadata: { chatID } })).id;
      chats.set(chatID, sessionID);
    }
    return sessionID;
  };
  /** The session of a chat, if it has one yet. */
  const knownSessionOf = async (chatID: string): Promise<string | undefined> => ((await agent.sessions.get(chatID)) ? chatID : chats.get(chatID));
  /** The session of a chat that has one. */
  const existingSessionOf = async (chatID: string): Promise<string> => {
    const sessionID = await knownSessionOf(chatID);
    if (!sessionID) throw new SessionNotFoundError(chatID);
    return sessionID;
  };

  // A new user message starts a run; its answer streams back. Approval responses in the posted
  // messages (useChat's addToolApprovalResponse) are answered first — the session's own only.
  app.on("POST", ["/chat", "/api/chat"], async (c) => {
    const request = await readBody(c, ChatRequest);
    const messages = request.messages as unknown as UIMessage[];
    // Answered before anything is made: a new chat has no requests of its own, so any it answers is
    // foreign (ApprovalScopeError, 403). Only the chat's own session and its subagents' are answered.
    const known = await knownSessionOf(request.id);
    const { replied } = await replyToUIApprovals(agent, known ?? request.id, messages).catch((error: unknown) => {
      // Reported as every route of this server reports a foreign answer.
      throw error instanceof ApprovalScopeError ? new ForeignApprovalError(error.requestID, error.sessionID) : error;
    });
    if (known && replied.length > 0) await afterReply(known);
    const last = messages.at(-1);
    if (request.trigger !== "submit-message" || last?.role !== "user") {
      // Nothing new to answer: the approvals were the message. The run they belong to goes on in
      // the server; clients follow it with GET /chat/:id/stream.
      return createUIMessageStreamResponse({ stream: finishedStream(last?.role === "assistant" ? last.id : undefined) });
    }
    const text = promptText(last);
    if (text.trim() === "") throw new InvalidInputError("The last message has no text.");
    // The run is the server's: the response only reads it, and a client that leaves stops reading.
    const run = agent.prompt(known ?? (await sessionOf(request.id)), text);
    return createUIMessageStreamResponse({ stream: toUIMessageStream(run) });
  });

  // useChat's resume (`resume: true`, DefaultChatTransport's reconnect request): the run in progress
  // from its start, then live — 204 when the session runs nothing.
  app.get("/chat/:id/stream", async (c) => {
    const sessionID = await existingSessionOf(c.req.param("id"));
    const rejoined = queue ? await rejoinQueuedRun(queue, sessionID, c.req.raw.signal) : agent.sessions.rejoin(sessionID, { signal: c.req.raw.signal });
    if (!rejoined) return c.body(null, 204);
    return createUIMessageStreamResponse({ stream: toUIMessageStream(rejoined) });
  });

  // The session's history as useChat's initial messages, waiting approvals included.
  app.get("/chat/:id/messages", async (c) => {
    const id = await existingSessionOf(c.req.param("id"));
    return c.json(toUIMessages(await agent.sessions.messages(id), { pending: await scopedPermissions(agent, id).pending() }));
  });

  // A message typed while the session works: steered into the running turn (the page's stream of
  // that turn shows it with a `data-steer` part where it entered) or queued for a turn of its own.
  // An idle session answers it with a turn at once. Replies once the message is stored.
  app.post("/chat/:id/messages", async (c) => {
    const sessionID = await existingSessionOf(c.req.param("id"));
    return c.json(await sendBusyMessage(agent, sessionID, await readBody(c, BusyMessage), queue));
  });

  // Answers approvals of this chat's session (or its subagents'): allow once or always, reject, or
  // reject with feedback. Another session's request is refused (403) and nothing is answered.
  app.post("/chat/:id/approvals", async (c) => {
    const sessionID = await existingSessionOf(c.req.param("id"));
    const { approvals } = await readBody(c, Approvals);
    // Checked for all first: a foreign id among them answers none.
    const own = await ownRequests(agent, sessionID, approvals.map((approval) => approval.id));
    const outcome = { replied: [] as string[], stale: [] as string[] };
    for (const approval of approvals) {
      const reply = approval.approved ? (approval.always ? "always" : "once") : approval.reason ? { reject: approval.reason } : "reject";
      const answered = own.has(approval.id) && (await agent.permissions.reply(approval.id, reply).then(() => true, staleOrThrow));
      (answered ? outcome.replied : outcome.stale).push(approval.id);
    }
    if (outcome.replied.length > 0) await afterReply(sessionID);
    return c.json(outcome);
  });
}

/** A request answered meanwhile (an `always` answer settles others too) is stale; anything else fails the request. */
function staleOrThrow(error: unknown): false {
  if (error instanceof NotFoundError) return false;
  throw error;
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
