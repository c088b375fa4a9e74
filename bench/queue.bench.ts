// @lathe/queue: turns per second with 1, 2 and 4 worker processes (scripted model, 200 ms per step)
// against one in-process agent answering the same prompts; enqueue → first token; and how long a
// turn waits after its worker is SIGKILLed until another worker continues it (target ≤ 2× the
// heartbeat interval). Real PostgreSQL (a throwaway server) and real pg-boss.
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { createAgent, type AgentEvent } from "@lathe/core";
import { createQueue } from "@lathe/queue";
import { PostgresStorage, startTestPostgres } from "@lathe/storage-postgres";
import { scriptedModel } from "../test/fixtures/queue-agent.ts";
import { report } from "./lib/report.ts";

const LATENCY_MS = 200;
const TURNS = 24;
const HEARTBEAT_S = 10;
const server = await startTestPostgres();
const workerScript = fileURLToPath(new URL("../test/fixtures/queue-worker.ts", import.meta.url));
const children = new Set<ChildProcess>();

function startWorker(schema: string, name: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [workerScript, server.connectionString, schema, name, "1", String(LATENCY_MS)], { stdio: ["ignore", "pipe", "inherit"] });
  children.add(child);
  child.once("exit", () => children.delete(child));
  return new Promise((resolve, reject) => {
    child.stdout!.on("data", (d: Buffer) => d.toString().includes("READY") && resolve(child));
    child.once("exit", (code) => reject(new Error(`worker exited (${code})`)));
  });
}

async function firstEvent(queue: ReturnType<typeof createQueue>, sessionID: string, after: number, match: (e: AgentEvent) => boolean): Promise<number> {
  for await (const { event } of queue.subscribe(sessionID, { after })) if (match(event)) return performance.now();
  throw new Error("subscription ended");
}
const isDelta = (e: AgentEvent) => e.type === "message.part.updated" && e.delta !== undefined;

// Baseline: one agent in this process, prompts one after another.
const baseStorage = await PostgresStorage.open({ connectionString: server.connectionString, schema: "inprocess" });
const inProcess = createAgent({ model: scriptedModel({ latencyMs: LATENCY_MS }), storage: baseStorage, snapshots: false, tools: [] });
const baseSessions = await Promise.all(Array.from({ length: TURNS }, () => inProcess.sessions.create()));
let start = performance.now();
for (const s of baseSessions) await inProcess.prompt(s.id, "hello");
const inProcessRate = TURNS / ((performance.now() - start) / 1000);
start = performance.now();
const baseRun = inProcess.prompt(baseSessions[0]!.id, "first token please");
for await (const event of baseRun) if (isDelta(event)) break;
const inProcessFirstToken = performance.now() - start;
await baseRun;

const rates: Record<number, number> = {};
let queueFirstToken = 0;
for (const workers of [1, 2, 4]) {
  const schema = `w${workers}`;
  const name = `bench_${workers}`;
  const queue = createQueue({ connectionString: server.connectionString, schema, name });
  const storage = await PostgresStorage.open({ connectionString: server.connectionString, schema });
  const host = createAgent({ model: scriptedModel(), storage });
  const procs = await Promise.all(Array.from({ length: workers }, () => startWorker(schema, name)));
  const sessions = await Promise.all(Array.from({ length: TURNS + 1 }, () => host.sessions.create()));
  if (workers === 1) {
    // Enqueue → first token, the worker idle and waiting (pg-boss polls every 500 ms).
    const times: number[] = [];
    for (const s of sessions.slice(0, 5)) {
      const t0 = performance.now();
      const seen = firstEvent(queue, s.id, 0, isDelta);
      await queue.enqueuePrompt(s.id, "first token please");
      times.push((await seen) - t0);
      await firstEvent(queue, s.id, 0, (e) => e.type === "session.status" && e.status.type === "idle");
    }
    times.sort((a, b) => a - b);
    queueFirstToken = times[2]!;
  }
  const jobs: string[] = [];
  start = performance.now();
  for (const s of sessions.slice(-TURNS)) jobs.push(await queue.enqueuePrompt(s.id, "hello"));
  while (!(await Promise.all(jobs.map((id) => queue.outcome(id)))).every((o) => o?.state === "completed")) await new Promise((r) => setTimeout(r, 20));
  rates[workers] = TURNS / ((performance.now() - start) / 1000);
  for (const p of procs) p.kill("SIGTERM");
  await Promise.all(procs.map((p) => new Promise((r) => (p.exitCode !== null ? r(null) : p.once("exit", r)))));
  await queue.close();
  await storage.close();
}

// Recovery: a worker running a long turn is SIGKILLed; how long until another worker continues it.
const recoveries: number[] = [];
{
  const schema = "recovery";
  const name = "bench_recovery";
  const queue = createQueue({ connectionString: server.connectionString, schema, name, heartbeatSeconds: HEARTBEAT_S });
  const storage = await PostgresStorage.open({ connectionString: server.connectionString, schema });
  const host = createAgent({ model: scriptedModel(), storage });
  for (let i = 0; i < 3; i++) {
    const session = await host.sessions.create();
    const victim = await startWorker(schema, name);
    await queue.enqueuePrompt(session.id, "run: sleep 30");
    await firstEvent(queue, session.id, 0, (e) => e.type === "message.part.updated" && e.part.type === "tool" && e.part.state.status === "running");
    const spare = startWorker(schema, name);
    await spare;
    const after = await queue.events().last(session.id);
    victim.kill("SIGKILL");
    const killedAt = performance.now();
    const resumedAt = await firstEvent(queue, session.id, after, (e) => e.type === "session.status" && e.status.type === "busy");
    recoveries.push(resumedAt - killedAt);
    for (const p of children) p.kill("SIGKILL");
  }
  await queue.close();
  await storage.close();
}
recoveries.sort((a, b) => a - b);

await inProcess.close();
await baseStorage.close();
await server.stop();

report(import.meta.url, [
  ...[1, 2, 4].map((n) => ({
    name: `turns per second, ${n} worker process${n > 1 ? "es" : ""} (1 turn at a time each, ${LATENCY_MS} ms model step)`,
    value: rates[n]!,
    unit: "turns/s",
    baseline: "one in-process agent, prompts one after another",
    baselineValue: inProcessRate,
    note: "higher is better",
  })),
  {
    name: "enqueue → first token (idle worker)",
    value: queueFirstToken,
    baseline: "agent.prompt → first token in process",
    baselineValue: inProcessFirstToken,
    note: `both include the model's ${LATENCY_MS} ms; the queue adds pg-boss polling (500 ms) and the event log`,
  },
  {
    name: "recovery: worker SIGKILLed mid-turn → another worker continues the turn (median of 3)",
    value: recoveries[1]!,
    baseline: "2 × heartbeat interval (the target)",
    baselineValue: 2 * HEARTBEAT_S * 1000,
    target: "≤ 1.0",
  },
]);
process.exit(0);
