import { createAgent } from "@lathe/core";
import { createQueue, type TurnQueue, type Worker } from "@lathe/queue";
import { PostgresStorage, startTestPostgres, type TestPostgres } from "@lathe/storage-postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../examples/server/src/server.ts";
import { deployTool, scriptedModel, workerAgent } from "./fixtures/queue-agent.ts";
import { api, events, TEST_TOKEN, until, type Sse } from "./sse.ts";

// examples/server in worker mode: two HTTP servers and a worker over one PostgreSQL; the API and
// the SSE stream are those of the single process.

describe("examples/server worker mode", () => {
  let server: TestPostgres;
  const http: RunningServer[] = [];
  const queues: TurnQueue[] = [];
  const storages: PostgresStorage[] = [];
  let worker: Worker;

  beforeAll(async () => {
    server = await startTestPostgres();
    const workerQueue = createQueue({ connectionString: server.connectionString });
    queues.push(workerQueue);
    worker = await workerQueue.work((context) => workerAgent(context), { concurrency: 2, handleSignals: false });
    for (let i = 0; i < 2; i++) {
      const queue = createQueue({ connectionString: server.connectionString });
      const storage = await PostgresStorage.open({ connectionString: server.connectionString });
      const agent = createAgent({ model: scriptedModel(), storage, tools: [deployTool], handOffReply: queue.handOffReply });
      queues.push(queue);
      storages.push(storage);
      http.push(await startServer({ agent, queue, port: 0, token: TEST_TOKEN }));
    }
  });
  afterAll(async () => {
    for (const s of http) await s.close();
    await worker?.stop();
    for (const q of queues) await q.close();
    for (const s of storages) await s.close();
    await server?.stop();
  });

  // Response bodies, loosely typed for assertions.
  const json = async (response: Response | Promise<Response>): Promise<any> => (await response).json();
  const post = (url: string, body: unknown) => api(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

  it("a prompt sent to one HTTP process runs on a worker; its events stream from another process, resumable by Last-Event-ID", async () => {
    const [a, b] = http as [RunningServer, RunningServer];
    const session = await json(post(`${a.url}/sessions`, {}));
    const watch = events(await api(`${b.url}/sessions/${session.id}/events`));
    await until(watch, (e) => e.event === "ready");
    const stream = events(await post(`${a.url}/sessions/${session.id}/prompt`, { text: "hello there" }));
    const received: Sse[] = [];
    const done = await until(stream, (e) => (received.push(e), e.event === "done"));
    expect(done.data.parts.find((p: { type: string }) => p.type === "text").text).toBe("answer to hello there");
    expect(received.filter((e) => e.event !== "done").map((e) => Number(e.id))).toEqual(received.slice(0, -1).map((_, i) => i + 1));
    // The other process saw the same events, numbered alike.
    const idle = await until(watch, (e) => e.event === "session.status" && e.data.status.type === "idle");
    expect(idle.id).toBe(received.at(-2)!.id);
    // Nothing runs any more: useChat's reconnect request says so, on either process.
    expect((await api(`${a.url}/chat/${session.id}/stream`)).status).toBe(204);
    expect((await api(`${b.url}/chat/${session.id}/stream`)).status).toBe(204);
    // A client reconnecting after event 3 gets the rest.
    const again = events(await api(`${b.url}/sessions/${session.id}/events`, { headers: { "Last-Event-ID": "3" } }));
    await until(again, (e) => e.event === "ready");
    const next = await until(again, () => true);
    expect(next.id).toBe("4");
    await again.return(undefined);
    await watch.return(undefined);
  });

  it("an approval answered on another HTTP process resumes the turn on a worker", async () => {
    const [a, b] = http as [RunningServer, RunningServer];
    const session = await json(post(`${a.url}/sessions`, {}));
    const stream = events(await post(`${a.url}/sessions/${session.id}/prompt`, { text: "ask: prod/api" }));
    const waiting = await until(stream, (e) => e.event === "waiting");
    const [request] = await json(api(`${b.url}/sessions/${session.id}/permissions`));
    expect(request.id).toBe(waiting.data.requestID);
    // Another session's client cannot answer it, through either route.
    const other = await json(post(`${b.url}/sessions`, {}));
    expect((await post(`${b.url}/sessions/${other.id}/permissions/${request.id}`, { reply: "once" })).status).toBe(403);
    expect((await post(`${b.url}/chat/${other.id}/approvals`, { approvals: [{ id: request.id, approved: true }] })).status).toBe(403);
    // A process that never loaded the request cannot tell whose it is: it answers nothing (stale).
    expect(await json(post(`${a.url}/chat/${other.id}/approvals`, { approvals: [{ id: request.id, approved: true }] }))).toEqual({ replied: [], stale: [request.id] });
    expect((await json(api(`${b.url}/sessions/${session.id}/permissions`))).map((r: { id: string }) => r.id)).toEqual([request.id]);
    expect((await post(`${b.url}/sessions/${session.id}/permissions/${request.id}`, { reply: "once" })).status).toBe(204);
    const watch = events(await api(`${a.url}/sessions/${session.id}/events?after=0`));
    await until(watch, (e) => e.event === "message.updated" && e.data.message.role === "assistant" && e.data.message.time.completed !== undefined && e.data.message.finish === "stop");
    await watch.return(undefined);
  });

  it("a message typed while a worker runs the turn is steered into it through the queue; a queued one gets its own turn after", { timeout: 30_000 }, async () => {
    const [a, b] = http as [RunningServer, RunningServer];
    const session = await json(post(`${a.url}/sessions`, {}));
    const watch = events(await api(`${a.url}/sessions/${session.id}/events?after=0`));
    void post(`${a.url}/sessions/${session.id}/prompt`, { text: "run: sleep 1" });
    // The worker runs the command; this process runs nothing of the turn.
    await until(watch, (e) => e.event === "message.part.updated" && e.data.part.type === "tool" && e.data.part.state.status === "running");
    const steered = await json(post(`${b.url}/chat/${session.id}/messages`, { text: "use staging instead" }));
    expect(steered).toEqual({ delivery: "steer", jobID: expect.any(String) });
    const queued = await json(post(`${b.url}/chat/${session.id}/messages`, { text: "then report", whileBusy: "queue" }));
    expect(queued).toEqual({ delivery: "queue", jobID: expect.any(String) });
    await watch.return(undefined);
    const texts = async () => {
      const { messages } = await json(api(`${a.url}/sessions/${session.id}`));
      return (messages as { info: { role: string }; parts: { type: string; text?: string }[] }[]).map((m) => `${m.info.role}: ${m.parts.filter((p) => p.type === "text").map((p) => p.text).join(" ")}`);
    };
    // The steered message entered the running turn after the command's result; the queued one had a turn of its own after it.
    await expect.poll(texts, { timeout: 15_000 }).toEqual([
      expect.stringMatching(/^user: run: sleep 1/),
      "assistant: running for run: sleep 1",
      "user: use staging instead",
      "assistant: answer to use staging instead",
      "user: then report",
      "assistant: answer to then report",
    ]);
  });

  it("a message typed while the turn waits for approval joins it: the approval still works, then the model reads the message", { timeout: 30_000 }, async () => {
    const [a, b] = http as [RunningServer, RunningServer];
    const session = await json(post(`${a.url}/sessions`, {}));
    const stream = events(await post(`${a.url}/sessions/${session.id}/prompt`, { text: "ask: prod/api" }));
    const waiting = await until(stream, (e) => e.event === "waiting");
    expect(await json(post(`${b.url}/chat/${session.id}/messages`, { text: "also check staging" }))).toEqual({ delivery: "steer", jobID: expect.any(String) });
    const texts = async () => {
      const { messages } = await json(api(`${a.url}/sessions/${session.id}`));
      return (messages as { info: { role: string }; parts: { type: string; text?: string; state?: { status: string } }[] }[]).map(
        (m) => `${m.info.role}: ${m.parts.map((p) => (p.type === "text" ? p.text : p.type === "tool" ? `[${p.state!.status}]` : "")).filter(Boolean).join(" ")}`,
      );
    };
    // Stored with the waiting turn, which still waits for the same request.
    await expect.poll(texts, { timeout: 10_000 }).toEqual(["user: ask: prod/api", "assistant: deploying for ask: prod/api [running]", "user: also check staging"]);
    expect((await json(api(`${b.url}/sessions/${session.id}/permissions`))).map((r: { id: string }) => r.id)).toEqual([waiting.data.requestID]);
    expect((await post(`${b.url}/sessions/${session.id}/permissions/${waiting.data.requestID}`, { reply: "once" })).status).toBe(204);
    await expect.poll(texts, { timeout: 15_000 }).toEqual([
      "user: ask: prod/api",
      "assistant: deploying for ask: prod/api [completed]",
      "user: also check staging",
      "assistant: answer to also check staging",
    ]);
  });
});
