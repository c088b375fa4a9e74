// The cost of toUIMessageStream: a finished run's events read as UI message chunks, per delta,
// against reading the same run's events alone (the run keeps its events, so both read the same
// recorded stream and neither waits on the model or storage). The run streams text, reasoning and
// tool input one character per delta, over a few steps with tool calls.
import { readUIMessageStream } from "ai";
import { createAgent, toUIMessageStream, type Run } from "@lathe/core";
import { mockModel, type MockTurn } from "@lathe/mock";
import { MemoryStorage } from "@lathe/storage";
import { defineTool } from "@lathe/tools";
import { z } from "zod";
import { report } from "./lib/report.ts";

const STEPS = 5;
const CHARS = Number(process.env.CHARS ?? 4_000); // per step: text, reasoning and tool input

const echo = defineTool({
  name: "echo",
  description: "Echoes the text back.",
  parameters: z.object({ text: z.string() }),
  readOnly: true,
  execute: async ({ text }) => ({ title: "echo", output: text.slice(0, 100), metadata: {} }),
});

// Each call differs, or the loop would take the repeats for a doom loop and ask.
const turns: MockTurn[] = Array.from({ length: STEPS }, (_, i) => ({
  reasoning: "r".repeat(CHARS),
  text: "t".repeat(CHARS),
  ...(i < STEPS - 1 ? { toolCalls: [{ name: "echo", input: { text: `${i}${"i".repeat(CHARS)}` } }] } : {}),
}));

const agent = createAgent({ model: mockModel(turns, { chunkSize: 1 }), storage: new MemoryStorage(), tools: [echo], snapshots: false });
const session = await agent.sessions.create();
const run = agent.prompt(session.id, "go");
const { info } = await run;
if (info.finish !== "stop") throw new Error(`unexpected finish ${info.finish}`);

async function eventsAlone(r: Run): Promise<number> {
  let deltas = 0;
  for await (const event of r) if (event.type === "message.part.updated" && event.delta) deltas++;
  return deltas;
}

async function uiChunks(r: Run): Promise<number> {
  let deltas = 0;
  for await (const chunk of toUIMessageStream(r)) if (chunk.type.endsWith("-delta")) deltas++;
  return deltas;
}

async function assembled(r: Run): Promise<number> {
  let states = 0;
  for await (const _ of readUIMessageStream({ stream: toUIMessageStream(r) })) states++;
  return states;
}

async function median(fn: () => Promise<number>): Promise<{ ms: number; count: number }> {
  await fn(); // warm-up
  const runs: Array<{ ms: number; count: number }> = [];
  for (let i = 0; i < 5; i++) {
    const start = performance.now();
    const count = await fn();
    runs.push({ ms: performance.now() - start, count });
  }
  runs.sort((a, b) => a.ms - b.ms);
  return runs[2]!;
}

const base = await median(() => eventsAlone(run));
const ui = await median(() => uiChunks(run));
const client = await median(() => assembled(run));
if (ui.count !== base.count) throw new Error(`deltas differ: ${ui.count} UI chunks for ${base.count} events`);
const perDelta = (ms: number) => (ms * 1e6) / base.count;
report(import.meta.url, [
  {
    name: `toUIMessageStream, per delta (${base.count.toLocaleString("en")} deltas)`,
    value: perDelta(ui.ms),
    unit: "ns",
    baseline: "iterating the run's events",
    baselineValue: perDelta(base.ms),
    note: `${ui.ms.toFixed(1)} ms vs ${base.ms.toFixed(1)} ms for the whole run`,
  },
  {
    name: "toUIMessageStream + readUIMessageStream (client assembly), per delta",
    value: perDelta(client.ms),
    unit: "ns",
    baseline: "iterating the run's events",
    baselineValue: perDelta(base.ms),
    note: `${client.count.toLocaleString("en")} message states`,
  },
]);
await agent.close();
