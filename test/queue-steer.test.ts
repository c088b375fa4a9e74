// Messages during a turn in worker mode: the pg-boss queue is the session's only queue; a prompt sent
// with `whileBusy: "steer"` from any process joins the turn a worker runs, or — when none runs — is
// answered by a turn of its own; a turn waiting for approval takes it when the approval is answered.
import type { AgentEvent } from "@lathe/core";
import { createAgent } from "@lathe/core";
import { createId, type MessageWithParts } from "@lathe/message";
import { PostgresStorage, startTestPostgres, type TestPostgres } from "@lathe/storage-postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createQueue, type TurnQueue } from "@lathe/queue";
import { deployTool, scriptedModel, workerAgent } from "./fixtures/queue-agent.ts";
import { until } from "./helpers.js";

const texts = (message: MessageWithParts) => message.parts.flatMap((p) => (p.type === "text" && !p.text.startsWith("<environment>") ? [p.text] : []));

describe("@lathe/queue: steering a turn that runs on a worker", () => {
  let server: TestPostgres;
  let n = 0;
  const queues: TurnQueue[] = [];
  const open = (schema: string) => {
    const queue = createQueue({ connectionString: server.connectionString, schema, name: `steer_${schema}` });
    queues.push(queue);
    return queue;
  };
  /** A worker, the "HTTP process" queue and a host agent answering approvals, over one fresh schema. */
  const setup = async () => {
    const schema = `s${++n}`;
    const queue = open(schema);
    const client = open(schema);
    const storage = await PostgresStorage.open({ connectionString: server.connectionString, schema });
    const host = createAgent({ model: scriptedModel(), storage, tools: [deployTool], permission: { deploy: "ask" }, handOffReply: client.handOffReply });
    const worker = await queue.work((context) => workerAgent(context), { handleSignals: false });
    const done = async (jobID: string) => {
      await until(async () => (await queue.outcome(jobID))?.state === "completed");
      return (await queue.outcome(jobID))!.output;
    };
    const finished = async (sessionID: string) => {
      const last = (await storage.listMessages(sessionID)).at(-1)?.info;
      return last?.role === "assistant" && last.time.completed !== undefined;
    };
    return { queue, client, storage, host, worker, done, finished, close: async () => (await worker.stop(), await storage.close()) };
  };

  beforeAll(async () => {
    server = await startTestPostgres();
  });
  afterAll(async () => {
    for (const q of queues) await q.close();
    await server?.stop();
  });

  it("refuses a steered prompt with turn options, and an unknown whileBusy", async () => {
    const queue = open(`s${++n}`);
    await expect(queue.enqueuePrompt("ses_1", "hi", { whileBusy: "steer", agent: "plan" })).rejects.toThrow(/keeps its own agent/);
    await expect(queue.enqueuePrompt("ses_1", "hi", { whileBusy: "reject" as never })).rejects.toThrow(TypeError);
    await expect(queue.enqueuePrompt("ses_1", "hi", { messageID: createId("message") })).rejects.toThrow(/steered prompt/);
    await expect(queue.enqueuePrompt("ses_1", "hi", { whileBusy: "steer", messageID: "../x" })).rejects.toThrow(/createId/);
  });

  it("a prompt steered from another process during step 1 is in the next request of the turn on the worker, which goes on; its job ends as steered", { timeout: 60_000 }, async () => {
    const { client, storage, host, done, finished, close } = await setup();
    const session = await host.sessions.create();
    const job = await client.enqueuePrompt(session.id, "run: sleep 2");
    // Step 1's tool call runs on the worker: the user types a correction.
    await until(async () => (await storage.listMessages(session.id)).some((m) => m.parts.some((p) => p.type === "tool" && p.state.status === "running")));
    const messageID = createId("message");
    const steer = await client.enqueuePrompt(session.id, "no, use the other file", { whileBusy: "steer", messageID });
    const steered = await done(steer);
    expect(steered).toMatchObject({ state: "steered", messageID });
    expect(await done(job)).toMatchObject({ state: "answered" });
    await until(() => finished(session.id));
    const messages = await storage.listMessages(session.id);
    // One turn: the steered message entered after step 1's tool result, and the turn went on to answer it.
    expect(messages.map((m) => m.info.role)).toEqual(["user", "assistant", "user", "assistant"]);
    expect(messages[1]!.parts.find((p) => p.type === "tool")).toMatchObject({ tool: "bash", state: { status: "completed" } });
    expect(messages[2]!.info).toMatchObject({ id: (steered as { messageID: string }).messageID, steered: true });
    expect(texts(messages[2]!)).toEqual(["no, use the other file"]);
    expect(messages[3]!.info).toMatchObject({ parentID: messages[2]!.info.id, finish: "stop" });
    expect(texts(messages[3]!)).toEqual(["answer to no, use the other file"]);
    await close();
  });

  it("a subscriber sees the steered message enter the turn, once", { timeout: 60_000 }, async () => {
    const { client, storage, host, done, close } = await setup();
    const session = await host.sessions.create();
    const controller = new AbortController();
    const seen: AgentEvent[] = [];
    const subscription = (async () => {
      for await (const { event } of client.subscribe(session.id, { after: 0, signal: controller.signal })) seen.push(event);
    })().catch(() => {});
    const job = await client.enqueuePrompt(session.id, "run: sleep 2");
    await until(async () => (await storage.listMessages(session.id)).some((m) => m.parts.some((p) => p.type === "tool" && p.state.status === "running")));
    const steer = await client.enqueuePrompt(session.id, "and the docs", { whileBusy: "steer" });
    const { messageID } = (await done(steer)) as { messageID: string };
    await done(job);
    await until(async () => seen.some((e) => e.type === "session.status" && e.status.type === "idle"));
    controller.abort();
    await subscription;
    expect(seen.filter((e) => e.type === "message.steered")).toEqual([expect.objectContaining({ messageID })]);
    // Every event once: no event of the steered run is logged again.
    const partUpdates = seen.filter((e) => e.type === "message.updated" && e.message.id === messageID);
    expect(partUpdates).toHaveLength(1);
    await close();
  });

  it("a steered prompt sent when no turn runs is answered by a turn of its own, after the prompts queued before it", { timeout: 60_000 }, async () => {
    const { client, storage, host, done, finished, close } = await setup();
    const session = await host.sessions.create();
    const first = await client.enqueuePrompt(session.id, "first");
    await done(first);
    const steer = await client.enqueuePrompt(session.id, "a late correction", { whileBusy: "steer" });
    expect(await done(steer)).toMatchObject({ state: "answered" });
    await until(() => finished(session.id));
    const messages = await storage.listMessages(session.id);
    expect(messages.map((m) => texts(m).join(""))).toEqual(["first", "answer to first", "a late correction", "answer to a late correction"]);
    await close();
  });

  it("a steered prompt sent while the turn waits for approval joins it: the approval still works, then the model reads the message", { timeout: 60_000 }, async () => {
    const { client, storage, host, worker, done, finished, close } = await setup();
    const session = await host.sessions.create();
    const ask = await client.enqueuePrompt(session.id, "ask: prod/api");
    expect(await done(ask)).toMatchObject({ state: "waiting" });
    const steer = await client.enqueuePrompt(session.id, "also check staging", { whileBusy: "steer" });
    expect(await done(steer)).toMatchObject({ state: "waiting" });
    expect(worker.active()).toEqual([]);
    // Stored, waiting with the turn; the request is still the one asked first.
    const [request] = await host.permissions.pending(session.id);
    expect(request).toMatchObject({ permission: "deploy", patterns: ["prod/api"] });
    expect((await storage.listMessages(session.id)).map((m) => m.info.role)).toEqual(["user", "assistant", "user"]);
    await host.permissions.reply(request!.id, "once");
    await until(() => finished(session.id));
    const messages = await storage.listMessages(session.id);
    expect(messages.map((m) => m.info.role)).toEqual(["user", "assistant", "user", "assistant"]);
    expect(messages[1]!.parts.find((p) => p.type === "tool")).toMatchObject({ tool: "deploy", state: { status: "completed", output: "deployed prod/api" } });
    expect(texts(messages[2]!)).toEqual(["also check staging"]);
    expect(texts(messages[3]!)).toEqual(["answer to also check staging"]);
    expect((await storage.getSession(session.id))!.permission?.pending).toEqual([]);
    await close();
  });

  it("a steered prompt whose message a stopped worker stored already is not stored twice: the turn answering it is resumed", { timeout: 60_000 }, async () => {
    const { queue, client, storage, host, worker, done, finished, close } = await setup();
    const session = await host.sessions.create();
    await done(await client.enqueuePrompt(session.id, "first"));
    await worker.stop();
    // What a worker that steered the message into a turn and died before ending the job leaves: the
    // message stored under the job's id, its answer unfinished, the job still queued.
    const steer = await client.enqueuePrompt(session.id, "stored once", { whileBusy: "steer" });
    const [job] = await queue.boss.findJobs(queue.name, { id: steer });
    const messageID = (job!.data as { steer: { messageID: string } }).steer.messageID;
    await storage.write({
      messages: [{ id: messageID, sessionID: session.id, role: "user", time: { created: Date.now() }, agent: "build", steered: true }],
      parts: [{ id: createId("part"), sessionID: session.id, messageID, type: "text", text: "stored once" }],
    });
    const again = await queue.work((context) => workerAgent(context), { handleSignals: false });
    expect(await done(steer)).toMatchObject({ state: "answered", messageID });
    await until(() => finished(session.id));
    const messages = await storage.listMessages(session.id);
    expect(messages.map((m) => texts(m).join(""))).toEqual(["first", "answer to first", "stored once", "answer to stored once"]);
    await again.stop();
    await close();
  });
});
