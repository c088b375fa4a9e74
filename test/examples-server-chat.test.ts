import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readUIMessageStream, type UIMessage } from "ai";
import { afterEach, describe, expect, it } from "vitest";
import { createAgent, toUIMessages, type Agent, type LatheUIMessage } from "@lathe/core";
import { mockModel } from "@lathe/mock";
import { startServer, type RunningServer } from "../examples/server/src/server.ts";
import { api, TEST_TOKEN, uiChunks as chunks } from "./sse.ts";

// examples/server's chat route speaks useChat's default transport: the body DefaultChatTransport
// posts, and an SSE UI message stream back with the protocol's header.

let server: RunningServer | undefined;
let agent: Agent | undefined;
afterEach(async () => {
  await server?.close();
  await agent?.close();
  server = agent = undefined;
});

async function start(model = mockModel([{ text: "Writing.", toolCalls: [{ name: "write", input: { path: "n.txt", content: "new\n" } }] }, { text: "Done writing." }], { chunkSize: 3 })) {
  const cwd = mkdtempSync(join(tmpdir(), "lathe-chat-"));
  agent = createAgent({
    model,
    cwd,
    snapshots: false,
    agents: { build: { permission: { edit: "ask" } } },
  });
  server = await startServer({ agent, port: 0, token: TEST_TOKEN });
  return { agent, url: server.url };
}

const userMessage = (text: string): UIMessage => ({ id: "u1", role: "user", parts: [{ type: "text", text }] });

describe("examples/server POST /chat", () => {
  it("answers useChat's request with a UI message stream; approvals posted while it streams let the call run", async () => {
    const { agent, url } = await start();
    const session = await agent.sessions.create();
    const response = await api(`${url}/chat`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ id: session.id, messages: [userMessage("write n.txt")], trigger: "submit-message", messageId: undefined }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("x-vercel-ai-ui-message-stream")).toBe("v1");
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    let final: LatheUIMessage | undefined;
    let answered = false;
    for await (const message of readUIMessageStream<LatheUIMessage>({ stream: chunks(response) as ReadableStream<never> })) {
      final = message;
      const waiting = message.parts.find((p) => "state" in p && p.state === "approval-requested") as { approval: { id: string } } | undefined;
      if (waiting && !answered) {
        answered = true;
        // The pending request is listed in the history route too.
        const history = (await (await api(`${url}/chat/${session.id}/messages`)).json()) as LatheUIMessage[];
        expect(JSON.stringify(history.at(-1))).toContain(waiting.approval.id);
        const reply = await api(`${url}/chat/${session.id}/approvals`, {
          method: "POST",
          body: JSON.stringify({ approvals: [{ id: waiting.approval.id, approved: true }] }),
        });
        expect(await reply.json()).toEqual({ replied: [waiting.approval.id], stale: [] });
      }
    }
    expect(answered).toBe(true);
    expect(final!.parts.some((p) => p.type === "text" && p.text === "Done writing.")).toBe(true);
    expect(final).toEqual(toUIMessages(await agent.sessions.messages(session.id)).at(-1));
    // The old SSE API still works beside it.
    expect((await api(`${url}/sessions/${session.id}/permissions`)).status).toBe(200);
  });

  it("opens a session for a chat id useChat made up, at DefaultChatTransport's default /api/chat too", async () => {
    const { agent, url } = await start();
    const ask = async (text: string) => {
      const response = await api(`${url}/api/chat`, { method: "POST", body: JSON.stringify({ id: "chat-abc", messages: [userMessage(text)], trigger: "submit-message" }) });
      expect(response.status).toBe(200);
      for await (const chunk of chunks(response)) if (chunk.type === "tool-approval-request") await agent.permissions.reply(chunk.approvalId, "reject");
    };
    await ask("write n.txt");
    await ask("again");
    const { sessions } = await agent.sessions.list();
    expect(sessions).toHaveLength(1);
    expect(sessions[0]!.metadata).toEqual({ chatID: "chat-abc" });
    expect((await agent.sessions.messages(sessions[0]!.id)).filter((m) => m.info.role === "user")).toHaveLength(2);
  });

  it("a client that stops reading leaves the run going; only POST /sessions/:id/abort stops it", async () => {
    const { agent, url } = await start(mockModel([{ text: "word ".repeat(400) }], { chunkSize: 5, delayMs: 5 }));
    const session = await agent.sessions.create();
    const controller = new AbortController();
    const response = await api(`${url}/chat`, {
      method: "POST",
      body: JSON.stringify({ id: session.id, messages: [userMessage("talk")] }),
      signal: controller.signal,
    });
    const reader = chunks(response).getReader();
    while ((await reader.read()).value?.type !== "text-delta");
    controller.abort();
    // The run outlives its client…
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(agent.isBusy(session.id)).toBe(true);
    // …until a person stops it.
    expect(await (await api(`${url}/sessions/${session.id}/abort`, { method: "POST" })).json()).toEqual({ aborted: true });
    await expect.poll(() => agent.isBusy(session.id), { timeout: 10_000 }).toBe(false);
    const last = (await agent.sessions.messages(session.id)).at(-1)!;
    expect(last.info).toMatchObject({ role: "assistant", finish: "aborted" });
  });

  it("refuses bad bodies and unknown sessions, and answers approvals sent as messages", async () => {
    const { agent, url } = await start();
    const post = (body: unknown) => api(`${url}/chat`, { method: "POST", body: JSON.stringify(body) });
    expect((await post({ messages: [] })).status).toBe(400);
    expect((await api(`${url}/chat/ses_nope/messages`)).status).toBe(404);
    const session = await agent.sessions.create();
    expect((await post({ id: session.id, messages: [{ id: "u", role: "user", parts: [] }] })).status).toBe(400);
    // Approval responses of an earlier answer, sent the way useChat's sendAutomaticallyWhen does:
    // nothing new to answer, the stream ends at once, a stale approval is skipped.
    const assistant = { id: "a1", role: "assistant", parts: [{ type: "tool-write", toolCallId: "c", state: "approval-responded", input: {}, approval: { id: "per_gone", approved: true } }] };
    const response = await post({ id: session.id, messages: [userMessage("hi"), assistant], trigger: "submit-message" });
    expect(response.status).toBe(200);
    const seen: string[] = [];
    for await (const chunk of chunks(response)) seen.push(chunk.type);
    expect(seen).toEqual(["start", "finish"]);
  });
});
