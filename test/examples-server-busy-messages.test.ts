import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readUIMessageStream } from "ai";
import { afterEach, describe, expect, it } from "vitest";
import { createAgent, type Agent, type LatheUIMessage } from "@lathe/core";
import { mockModel, type MockModel, type MockTurnInput } from "@lathe/mock";
import { SqliteStorage } from "@lathe/storage";
import { examplePermissions } from "../examples/shared/permission-rules.ts";
import { startServer, type RunningServer } from "../examples/server/src/server.ts";
import { gate, lastUserText } from "./gated-turns.ts";
import { api, TEST_TOKEN, uiChunks } from "./sse.ts";

// examples/server's POST /chat/:id/messages: a message sent while the session works is steered into
// the running turn (stored before the reply; the model's next request carries it; the turn's UI
// stream shows it where it entered) or queued for a turn of its own; an idle session answers it at
// once. Everything the other routes refuse, it refuses too.

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function start(script: MockTurnInput[]): Promise<{ agent: Agent; model: MockModel; url: string }> {
  const cwd = mkdtempSync(join(tmpdir(), "lathe-busy-"));
  writeFileSync(join(cwd, "notes.txt"), "one\ntwo\n");
  const model = mockModel(script, { chunkSize: 8 });
  const agent = createAgent({ model, cwd, snapshots: false, ...examplePermissions() });
  const server: RunningServer = await startServer({ agent, port: 0, token: TEST_TOKEN });
  cleanups.push(() => rmSync(cwd, { recursive: true, force: true }), () => agent.close(), () => server.close());
  return { agent, model, url: server.url };
}

const read = { toolCalls: [{ name: "read", input: { path: "notes.txt" } }] };
const send = (url: string, sessionID: string, body: unknown) => api(`${url}/chat/${sessionID}/messages`, { method: "POST", body: JSON.stringify(body) });
/** Starts a turn the way the page does (useChat's POST /chat) and returns its UI stream's response. */
const startTurn = (url: string, sessionID: string, text: string) =>
  api(`${url}/chat`, { method: "POST", body: JSON.stringify({ id: sessionID, messages: [{ id: "u1", role: "user", parts: [{ type: "text", text }] }], trigger: "submit-message" }) });
/** How the session's last message ended, if it is a finished answer. */
async function lastFinish(agent: Agent, sessionID: string): Promise<string | undefined> {
  const info = (await agent.sessions.messages(sessionID)).at(-1)?.info;
  return info?.role === "assistant" ? info.finish : undefined;
}
async function lastMessage(response: Response): Promise<LatheUIMessage> {
  let last: LatheUIMessage | undefined;
  for await (const message of readUIMessageStream<LatheUIMessage>({ stream: uiChunks(response) as ReadableStream<never> })) last = message;
  return last!;
}

describe("POST /chat/:id/messages", () => {
  it("steers a message into the running turn: stored before the reply, in the next request, shown where it entered", async () => {
    const held = gate(read);
    const { agent, model, url } = await start([read, held.turn, { text: "Kept the old format." }]);
    const { id } = await agent.sessions.create();
    const turn = await startTurn(url, id, "Refactor the notes");
    expect(turn.status).toBe(200);
    const streamed = lastMessage(turn);
    await held.reached; // step 2 of 3 is in flight

    const reply = await send(url, id, { text: "No, keep the old format" });
    expect(reply.status).toBe(200);
    const body = (await reply.json()) as { delivery: string; messageID: string };
    expect(body).toEqual({ delivery: "steer", messageID: expect.stringMatching(/^msg_/) });
    // Stored before the reply: a crash now cannot lose it.
    const stored = await agent.sessions.messages(id);
    expect(stored.find((m) => m.info.id === body.messageID)?.parts).toEqual([expect.objectContaining({ type: "text", text: "No, keep the old format" })]);

    held.open();
    const answer = await streamed;
    expect(model.calls).toHaveLength(3);
    expect(lastUserText(model.calls[1]!)).toBe("Refactor the notes");
    expect(lastUserText(model.calls[2]!)).toBe("No, keep the old format");
    // The running turn's UI stream (the one the page reads) shows it between the steps it came between.
    const kinds = answer.parts.map((part) => part.type).filter((type) => type !== "step-start");
    const at = answer.parts.findIndex((part) => part.type === "data-steer");
    expect(answer.parts[at]).toMatchObject({ type: "data-steer", data: { messageID: body.messageID, text: "No, keep the old format" } });
    expect(kinds.filter((type) => type === "tool-read")).toHaveLength(2);
    expect(answer.parts.slice(0, at).filter((part) => part.type === "tool-read")).toHaveLength(2);
    expect(answer.parts.slice(at).some((part) => part.type === "text" && part.text === "Kept the old format.")).toBe(true);
    // The stored history has it as a user message of its own, between the two answers.
    const history = (await (await api(`${url}/chat/${id}/messages`)).json()) as LatheUIMessage[];
    expect(history.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
    expect(history[2]!.id).toBe(body.messageID);
  });

  it("queues a message for a turn of its own after the running one", async () => {
    const held = gate(read);
    const { agent, model, url } = await start([held.turn, { text: "Read it." }, { text: "Docs updated." }]);
    const { id } = await agent.sessions.create();
    const turn = await startTurn(url, id, "Read the notes");
    const streamed = lastMessage(turn);
    await held.reached;

    const reply = await send(url, id, { text: "Then update the docs", whileBusy: "queue" });
    expect(reply.status).toBe(200);
    const body = (await reply.json()) as { delivery: string; queuedID: string };
    expect(body).toEqual({ delivery: "queue", queuedID: expect.stringMatching(/^que_/) });
    expect((await agent.sessions.get(id))?.queue?.map((q) => q.id)).toEqual([body.queuedID]);

    held.open();
    const first = await streamed;
    expect(first.parts.some((part) => part.type === "data-steer")).toBe(false);
    // Its turn follows; the page rejoins it with GET /chat/:id/stream.
    await expect.poll(() => model.calls.length, { timeout: 5_000 }).toBe(3);
    expect(lastUserText(model.calls[2]!)).toBe("Then update the docs");
    await expect.poll(() => lastFinish(agent, id), { timeout: 5_000 }).toBe("stop");
    const stored = await agent.sessions.messages(id);
    expect(stored.map((m) => m.info.role)).toEqual(["user", "assistant", "user", "assistant"]);
    expect((await agent.sessions.get(id))?.queue ?? []).toEqual([]);
  });

  it("answers a message to an idle session with a turn of its own", async () => {
    const { agent, model, url } = await start([{ text: "Hello." }]);
    const { id } = await agent.sessions.create();
    const reply = await send(url, id, { text: "Hi", whileBusy: "steer" });
    expect(reply.status).toBe(200);
    const body = (await reply.json()) as { delivery: string; messageID: string };
    expect(body).toEqual({ delivery: "turn", messageID: expect.stringMatching(/^msg_/) });
    await expect.poll(() => lastFinish(agent, id), { timeout: 5_000 }).toBe("stop");
    expect((await agent.sessions.messages(id))[0]!.info.id).toBe(body.messageID);
    expect(lastUserText(model.calls[0]!)).toBe("Hi");
  });

  it("answers 409 when another process runs the session's turn (nothing here to steer it into), and stores nothing", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "lathe-busy-two-"));
    cleanups.push(() => rmSync(cwd, { recursive: true, force: true }));
    const held = gate({ text: "Done." });
    // Two processes on one SQLite file: the other one runs the turn and holds the session's lease.
    const mine = new SqliteStorage(join(cwd, "sessions.db"));
    const theirs = new SqliteStorage(join(cwd, "sessions.db"));
    const other = createAgent({ model: mockModel([held.turn]), cwd, storage: theirs, snapshots: false });
    const agent = createAgent({ model: mockModel([]), cwd, storage: mine, snapshots: false });
    const server = await startServer({ agent, port: 0, token: TEST_TOKEN });
    cleanups.push(() => mine.close(), () => theirs.close(), () => other.close(), () => agent.close(), () => server.close());
    const { id } = await other.sessions.create();
    const running = other.prompt(id, "Work");
    await held.reached;
    for (const whileBusy of ["steer", "queue"]) {
      const reply = await send(server.url, id, { text: "Also this", whileBusy });
      expect(reply.status, whileBusy).toBe(409);
      expect(((await reply.json()) as { error: { name: string } }).error.name).toBe("SessionBusyError");
    }
    held.open();
    await running;
    expect((await other.sessions.messages(id)).filter((m) => m.info.role === "user")).toHaveLength(1);
    expect((await other.sessions.get(id))?.queue ?? []).toEqual([]);
  });

  it("refuses bad bodies, no token, a foreign Origin or Host, a body that is not JSON, and an unknown session — storing nothing", async () => {
    const held = gate({ text: "Done." });
    const { agent, url } = await start([held.turn]);
    const { id } = await agent.sessions.create();
    const turn = await startTurn(url, id, "Work");
    const streamed = lastMessage(turn);
    await held.reached; // refused while busy, where a message would be taken
    const port = new URL(url).port;
    const bad: Array<[string, RequestInit, number]> = [
      ["empty text", { body: JSON.stringify({ text: "" }) }, 400],
      ["blank text", { body: JSON.stringify({ text: "  \n " }) }, 400],
      ["no text", { body: "{}" }, 400],
      ["text not a string", { body: JSON.stringify({ text: 42 }) }, 400],
      ["an extra field (the server picks the agent)", { body: JSON.stringify({ text: "hi", agent: "plan" }) }, 400],
      ["a system prompt", { body: JSON.stringify({ text: "hi", system: "obey me" }) }, 400],
      ["a model", { body: JSON.stringify({ text: "hi", model: "gpt-x" }) }, 400],
      ["a message id", { body: JSON.stringify({ text: "hi", messageID: "msg_0123" }) }, 400],
      ["files", { body: JSON.stringify({ text: "hi", files: [{ url: "file:///etc/passwd" }] }) }, 400],
      ["text over 100,000 characters", { body: JSON.stringify({ text: "x".repeat(100_001) }) }, 400],
      ["an array", { body: JSON.stringify([{ text: "hi" }]) }, 400],
      ["whileBusy reject", { body: JSON.stringify({ text: "hi", whileBusy: "reject" }) }, 400],
      ["whileBusy unknown", { body: JSON.stringify({ text: "hi", whileBusy: "now" }) }, 400],
      ["not JSON", { body: "text=hi" }, 400],
      ["a form", { body: "text=hi", headers: { "content-type": "application/x-www-form-urlencoded" } }, 415],
      ["text/plain", { body: '{"text":"hi"}', headers: { "content-type": "text/plain" } }, 415],
      ["no content type", { body: '{"text":"hi"}', headers: { "content-type": "" } }, 415],
      ["a foreign origin", { body: '{"text":"hi"}', headers: { origin: "http://evil.example" } }, 403],
      ["a sibling port's origin", { body: '{"text":"hi"}', headers: { origin: `http://127.0.0.1:${Number(port) + 1}` } }, 403],
    ];
    for (const [what, init, status] of bad) {
      const headers = new Headers(init.headers);
      const response = await api(`${url}/chat/${id}/messages`, { method: "POST", ...init, headers });
      expect(response.status, what).toBe(status);
      expect(((await response.json()) as { error: { name: string } }).error.name, what).toMatch(/Error$/);
    }
    for (const token of ["", "wrong"]) {
      const response = await fetch(`${url}/chat/${id}/messages`, { method: "POST", headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: '{"text":"hi"}' });
      expect(response.status, token || "no token").toBe(401);
    }
    const rebound = await raw(`${url}/chat/${id}/messages`, { ...{ authorization: `Bearer ${TEST_TOKEN}`, "content-type": "application/json" }, host: `evil.example:${port}` }, '{"text":"hi"}');
    expect(rebound).toBe(403);
    const unknown = await send(url, "ses_unknown", { text: "hi" });
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: { name: string } }).error.name).toBe("SessionNotFoundError");
    // Nothing of it reached the session: one prompt, no queue.
    expect((await agent.sessions.messages(id)).filter((m) => m.info.role === "user")).toHaveLength(1);
    expect((await agent.sessions.get(id))?.queue ?? []).toEqual([]);
    expect((await agent.sessions.list()).sessions).toHaveLength(1);
    held.open();
    await streamed;
  });
});

/** A POST with any Host header (fetch sets it from the URL); resolves with the status. */
function raw(url: string, headers: Record<string, string>, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: "POST", headers }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode!));
    });
    req.on("error", reject);
    req.end(body);
  });
}
