// Telemetry cost: the same 200-step session (each step 100 text deltas + one no-op tool call, a
// zero-delay mock model, memory storage) with OpenTelemetry on — Lathe's spans and the AI SDK's,
// exported to an in-memory exporter — ÷ with telemetry off, measured in the same run. Runs alternate
// so drift on a shared machine hits both sides alike; each figure is the median CPU time of a session.
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { createAgent, type AgentOptions } from "@lathe/core";
import { mockModel } from "@lathe/mock";
import { report } from "./lib/report.ts";
import { CHUNK, DELTAS, longSessionScript, noopTool, STEPS } from "./lib/long-session.ts";

const RUNS = 7;

const exporter = new InMemorySpanExporter();
const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer("bench");
let spansPerRun = 0;

async function session(telemetry: AgentOptions["telemetry"]): Promise<number> {
  const agent = createAgent({ model: mockModel(longSessionScript(), { chunkSize: CHUNK }), tools: [noopTool], instructions: "You are a test.", snapshots: false, ...(telemetry ? { telemetry } : {}) });
  const created = await agent.sessions.create();
  // CPU time of the process, not wall time: on a shared, loaded machine it varies far less, and
  // telemetry's cost is CPU work (spans made, attributes set, exported to memory).
  const start = process.cpuUsage();
  const { info } = await agent.prompt(created.id, "go");
  const used = process.cpuUsage(start);
  const ms = (used.user + used.system) / 1000;
  if (info.finish !== "stop") throw new Error(`unexpected finish ${info.finish}: ${JSON.stringify(info.error)}`);
  await agent.close();
  if (telemetry) {
    spansPerRun = exporter.getFinishedSpans().length;
    exporter.reset();
  }
  return ms;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const off: number[] = [];
const on: number[] = [];
await session(undefined);
await session({ tracer });
for (let i = 0; i < RUNS; i++) {
  off.push(await session(undefined));
  on.push(await session({ tracer }));
}

report(import.meta.url, [
  {
    name: `${STEPS}-step session, telemetry on (in-memory exporter), CPU time`,
    value: median(on),
    baseline: "telemetry off",
    baselineValue: median(off),
    target: "≤ 1.1×",
    note: `${spansPerRun} spans per run`,
  },
]);
