// Rejoining a session: a client that reconnects replays the session's event log from its cursor,
// then goes on live. Measured on one run of ~10,000 events (text streamed one character per delta):
// - reattach latency — a client reconnects → its first replayed event — through the library
//   (`agent.sessions.stream(id, { after: 0 })`) against iterating the run object from its start (the
//   run keeps its own events), and over HTTP (examples/server's GET /sessions/:id/events with
//   Last-Event-ID) against a bare authenticated round trip (GET /health) on the same server;
// - replay rate (events per second read back from the log) against the live rate of the same run
//   (events per second a subscriber received while it streamed).
import { createAgent } from "@lathe/core";
import { mockModel } from "@lathe/mock";
import { MemoryStorage } from "@lathe/storage";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { medianMs, report } from "./lib/report.ts";

const CHARS = Number(process.env.CHARS ?? 10_000);
const agent = createAgent({ model: mockModel([{ text: "t".repeat(CHARS) }], { chunkSize: 1 }), storage: new MemoryStorage(), snapshots: false });
const session = await agent.sessions.create();

// Live: a subscriber from before the run, timed from its first event to the run's idle.
let liveFirst = 0;
let liveCount = 0;
const live = (async () => {
  for await (const { event } of agent.sessions.stream(session.id, { after: "now" })) {
    if (liveCount++ === 0) liveFirst = performance.now();
    if (event.type === "session.status" && event.status.type === "idle") return performance.now() - liveFirst;
  }
  return 0;
})();
const run = agent.prompt(session.id, "go");
const { info } = await run;
if (info.finish !== "stop") throw new Error(`unexpected finish ${info.finish}`);
const liveMs = await live;

const stored = [];
for await (const item of agent.sessions.stream(session.id, { after: 0 })) {
  stored.push(item);
  if (item.event.type === "session.status" && item.event.status.type === "idle") break;
}
if (stored.length < 10_000) throw new Error(`only ${stored.length} events logged; raise CHARS`);

/** Time to the first event of an async iterable, its iterator closed after. */
async function firstEvent(source: () => AsyncIterable<unknown>): Promise<void> {
  const iterator = source()[Symbol.asyncIterator]();
  await iterator.next();
  await iterator.return?.();
}

const reattach = await medianMs(() => firstEvent(() => agent.sessions.stream(session.id, { after: 0 })), 21, 3);
const fromRun = await medianMs(() => firstEvent(() => run), 21, 3);

// Replay rate: the whole log read back, until the run's idle.
const replayMs = await medianMs(async () => {
  for await (const item of agent.sessions.stream(session.id, { after: 0 })) if (item.event.type === "session.status" && item.event.status.type === "idle") break;
}, 7, 1);

// Over HTTP, against a server in its own process: reconnecting with Last-Event-ID 0 until the
// first replayed event arrives.
const child = spawn(process.execPath, [fileURLToPath(new URL("./lib/reattach-server.ts", import.meta.url))], { env: { ...process.env, CHARS: String(CHARS) }, stdio: ["ignore", "pipe", "inherit"] });
const remote = await new Promise<{ url: string; token: string; sessionID: string; events: number }>((resolve, reject) => {
  let out = "";
  child.stdout.on("data", (chunk: Buffer) => {
    out += chunk.toString();
    if (out.includes("\n")) resolve(JSON.parse(out));
  });
  child.once("exit", (code) => reject(new Error(`the bench server exited with ${code}`)));
});
const headers = { authorization: `Bearer ${remote.token}` };
async function firstSse(): Promise<void> {
  const controller = new AbortController();
  const response = await fetch(`${remote.url}/sessions/${remote.sessionID}/events`, { headers: { ...headers, "Last-Event-ID": "0" }, signal: controller.signal });
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  // "ready" first, then the first logged event: the first block with an id.
  while (!/(^|\n)id: \d+\n/.test(text)) text += (await reader.read()).value ?? "";
  controller.abort();
  await reader.cancel().catch(() => {});
}
const httpReattach = await medianMs(firstSse, 21, 3);
const httpFloor = await medianMs(async () => void (await (await fetch(`${remote.url}/health`, { headers })).json()), 21, 3);
child.kill("SIGTERM");
await agent.close();

const rate = (count: number, ms: number) => (count * 1000) / ms;
report(import.meta.url, [
  {
    name: `reattach latency, library (first replayed event, ${stored.length.toLocaleString("en")} stored events)`,
    value: reattach,
    baseline: "first event of the run object, iterated from its start",
    baselineValue: fromRun,
    target: "< 5 ms",
  },
  {
    name: `reattach latency over HTTP (Last-Event-ID: 0 → first replayed SSE event, ${remote.events.toLocaleString("en")} stored events)`,
    value: httpReattach,
    baseline: "GET /health round trip (same server, token checked)",
    baselineValue: httpFloor,
    target: "< 100 ms",
    note: "the replay serialises each event whole (a streamed part carries its text so far), so the first SSE block waits on the first batch written",
  },
  {
    name: `event-log replay rate (${stored.length.toLocaleString("en")} events)`,
    value: rate(stored.length, replayMs),
    unit: "events/s",
    baseline: "live streaming of the same run",
    baselineValue: rate(liveCount, liveMs),
    target: "> 1× (a rejoining client catches up)",
    note: `replay ${replayMs.toFixed(1)} ms; live ${liveMs.toFixed(0)} ms for ${liveCount.toLocaleString("en")} events`,
  },
]);
