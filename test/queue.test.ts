import { createAgent, type AgentEvent } from "@lathe/core";
import { PostgresStorage, startTestPostgres, type TestPostgres } from "@lathe/storage-postgres";
import { PgBoss } from "pg-boss";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createQueue, type TurnQueue } from "@lathe/queue";
import { deployTool, scriptedModel, workerAgent } from "./fixtures/queue-agent.ts";
import { until } from "./helpers.js";

describe("@lathe/queue in one process", () => {
  let server: TestPostgres;
  let n = 0;
  const queues: TurnQueue[] = [];
  const open = (schema: string, extra: { maxAttempts?: number } = {}) => {
    const queue = createQueue({ connectionString: server.connectionString, schema, name: `turns_${schema}`, ...extra });
    queues.push(queue);
    return queue;
  };

  beforeAll(async () => {
    server = await startTestPostgres();
  });
  afterAll(async () => {
    for (const q of queues) await q.close();
    await server?.stop();
  });

  it("refuses bad options and empty prompts", async () => {
    expect(() => createQueue({} as never)).toThrow(TypeError);
    expect(() => createQueue({ connectionString: "postgres://x", heartbeatSeconds: 5 })).toThrow(/at least 10/);
    expect(() => createQueue({ connectionString: "postgres://x", maxAttempts: 0 })).toThrow(/maxAttempts/);
    const queue = open(`q${++n}`);
    await expect(queue.enqueuePrompt("ses_1", "  ")).rejects.toThrow(/empty/);
    await expect(queue.enqueuePrompt("", "hi")).rejects.toThrow(/session id/);
  });

  it("heartbeats while a turn runs: a turn longer than the heartbeat interval is neither failed nor taken again", { timeout: 60_000 }, async () => {
    const schema = `q${++n}`;
    const queue = open(schema);
    const storage = await PostgresStorage.open({ connectionString: server.connectionString, schema });
    const host = createAgent({ model: scriptedModel(), storage });
    const session = await host.sessions.create();
    const worker = await queue.work((context) => workerAgent(context), { handleSignals: false });
    const job = await queue.enqueuePrompt(session.id, "run: sleep 14");
    await until(async () => (await queue.outcome(job))?.state === "completed", 40_000);
    const [found] = await queue.boss.findJobs(queue.name, { id: job });
    expect(found!.retryCount).toBe(0);
    const messages = await storage.listMessages(session.id);
    expect(messages[1]!.parts.find((p) => p.type === "tool")).toMatchObject({ state: { status: "completed" } });
    await worker.stop();
    await storage.close();
  });

  it("runs on a pg-boss instance the host made and started", async () => {
    const boss = new PgBoss(server.connectionString);
    boss.on("error", () => {});
    await boss.start();
    const queue = createQueue({ boss, name: "host_boss_turns" });
    const jobID = await queue.enqueuePrompt("ses_host", "hello");
    expect(await queue.outcome(jobID)).toMatchObject({ state: "created" });
    expect(() => queue.subscribe("ses_host")).toThrow(/connectionString/);
    await queue.close();
    await boss.stop({ graceful: false });
  });

  it("answers each session's prompts in order, and a subscriber sees every event once with dense numbers", async () => {
    const schema = `q${++n}`;
    const queue = open(schema);
    const storage = await PostgresStorage.open({ connectionString: server.connectionString, schema });
    const host = createAgent({ model: scriptedModel(), storage });
    const sessions = [await host.sessions.create(), await host.sessions.create()];
    const worker = await queue.work((context) => workerAgent(context), { concurrency: 2, handleSignals: false });
    const seen: { seq: number; event: AgentEvent }[] = [];
    const controller = new AbortController();
    const subscription = (async () => {
      for await (const item of queue.subscribe(sessions[0]!.id, { signal: controller.signal })) seen.push(item);
    })();
    const jobs: string[] = [];
    for (const s of sessions) for (const p of ["one", "two", "three"]) jobs.push(await queue.enqueuePrompt(s.id, `${p} of ${s.id}`));
    await until(async () => (await Promise.all(jobs.map((id) => queue.outcome(id)))).every((o) => o?.state === "completed"));
    for (const s of sessions) {
      const messages = await storage.listMessages(s.id);
      const texts = messages.map((m) => m.parts.flatMap((p) => (p.type === "text" ? [p.text] : [])).join(""));
      expect(texts).toEqual(["one", "two", "three"].flatMap((p) => [`${p} of ${s.id}`, `answer to ${p} of ${s.id}`]));
      expect((await storage.getSession(s.id))!.usage.tokens.output).toBe(15);
    }
    await until(async () => seen.filter((e) => e.event.type === "session.status" && e.event.status.type === "idle").length === 3);
    controller.abort();
    await subscription;
    expect(seen.map((e) => e.seq)).toEqual(seen.map((_, i) => i + 1));
    expect(seen.every((e) => e.event.sessionID === sessions[0]!.id)).toBe(true);
    // A client that reconnects after the 5th event gets the rest, no more, no less.
    const rest: number[] = [];
    for await (const item of queue.subscribe(sessions[0]!.id, { after: 5, signal: AbortSignal.timeout(300) })) rest.push(item.seq);
    expect(rest).toEqual(seen.slice(5).map((e) => e.seq));
    await worker.stop();
    await storage.close();
  });

  it("aborts a turn from another process's queue, and a turn waiting for approval frees its worker until the answer enqueues the resume", async () => {
    const schema = `q${++n}`;
    const queue = open(schema);
    const other = open(schema); // the "HTTP process"
    const storage = await PostgresStorage.open({ connectionString: server.connectionString, schema });
    const host = createAgent({ model: scriptedModel(), storage, tools: [deployTool], permission: { deploy: "ask" }, handOffReply: other.handOffReply });
    const worker = await queue.work((context) => workerAgent(context), { handleSignals: false });

    const slow = await host.sessions.create();
    const job = await other.enqueuePrompt(slow.id, "run: sleep 30");
    await until(async () => (await storage.listMessages(slow.id)).some((m) => m.parts.some((p) => p.type === "tool" && p.state.status === "running")));
    await other.abort(slow.id, "stop it");
    await until(async () => (await queue.outcome(job))?.state === "completed", 10_000);
    const [, answer] = await storage.listMessages(slow.id);
    expect(answer!.info).toMatchObject({ role: "assistant", finish: "aborted" });

    const waiting = await host.sessions.create();
    const ask = await other.enqueuePrompt(waiting.id, "ask: prod/api");
    await until(async () => (await queue.outcome(ask))?.state === "completed");
    expect((await queue.outcome(ask))?.output).toMatchObject({ state: "waiting" });
    expect(worker.active()).toEqual([]);
    const [request] = await host.permissions.pending(waiting.id);
    expect(request).toMatchObject({ permission: "deploy", patterns: ["prod/api"] });
    await host.permissions.reply(request!.id, "once");
    await until(async () => {
      const messages = await storage.listMessages(waiting.id);
      const last = messages.at(-1)?.info;
      return last?.role === "assistant" && last.time.completed !== undefined;
    });
    const messages = await storage.listMessages(waiting.id);
    expect(messages.map((m) => m.info.role)).toEqual(["user", "assistant"]);
    expect(messages[1]!.parts.find((p) => p.type === "tool")).toMatchObject({ tool: "deploy", state: { status: "completed", output: "deployed prod/api" } });
    expect(messages[1]!.parts.flatMap((p) => (p.type === "text" ? [p.text] : []))).toEqual(["deploying for ask: prod/api", "answer to ask: prod/api"]);
    expect((await storage.getSession(waiting.id))!.permission?.pending).toEqual([]);
    await worker.stop();
    await storage.close();
  });
  it("a resume job whose answers name another session's request answers nothing, and the victim's call never runs; a queued file: URL is refused", async () => {
    const schema = `q${++n}`;
    const queue = open(schema);
    const client = open(schema);
    const storage = await PostgresStorage.open({ connectionString: server.connectionString, schema });
    const host = createAgent({ model: scriptedModel(), storage, tools: [deployTool], permission: { deploy: "ask" }, handOffReply: client.handOffReply });
    const worker = await queue.work((context) => workerAgent(context), { handleSignals: false });
    const victim = await host.sessions.create();
    const attacker = await host.sessions.create();
    const asked = await client.enqueuePrompt(victim.id, "ask: prod/victim");
    await until(async () => (await queue.outcome(asked))?.state === "completed");
    const [request] = await host.permissions.pending(victim.id);
    const forged = await client.enqueueResume(attacker.id, [{ requestID: request!.id, reply: "always" }]);
    await until(async () => (await queue.outcome(forged))?.state === "completed");
    // Refused where the worker holds the request; where it does not (the victim's turn left it), the
    // answer finds no request of the attacker's session and is not applied: nothing to resume.
    expect((await queue.outcome(forged))?.output).toMatchObject({ state: expect.stringMatching(/^(refused|nothing-to-resume)$/) });
    expect((await storage.getSession(victim.id))!.permission?.pending.map((r) => r.id)).toEqual([request!.id]);
    const deployed = async () => (await storage.listMessages(victim.id)).flatMap((m) => m.parts).some((p) => p.type === "tool" && p.state.status === "completed");
    expect(await deployed()).toBe(false);
    // The host's own answer does run it: the forged one was refused, not lost to a broken setup.
    await host.permissions.reply(request!.id, "once");
    await until(deployed);
    const file = await client.enqueuePrompt(attacker.id, [{ type: "file", url: "file:///etc/passwd", mime: "text/plain" }]);
    await until(async () => (await queue.outcome(file))?.state === "completed");
    expect((await queue.outcome(file))?.output).toMatchObject({ state: "refused", reason: expect.stringContaining("file: URLs are refused") });
    expect(await storage.listMessages(attacker.id)).toEqual([]);
    await worker.stop();
    await storage.close();
  });
});
