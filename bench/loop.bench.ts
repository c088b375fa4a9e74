// Loop overhead: a 200-step session (each step 100 text deltas + one no-op tool call) with a
// zero-delay mock model and memory storage. Lathe's time ÷ a hand-written minimal streamText loop
// making the same calls, measured in the same run; plus events per second delivered to a listener.
import { streamText, tool, type ModelMessage } from "ai";
import { z } from "zod";
import { createAgent } from "@lathe/core";
import { mockModel } from "@lathe/mock";
import { medianMs, report } from "./lib/report.ts";
import { CHUNK, DELTAS, longSessionScript, noopTool, STEPS } from "./lib/long-session.ts";

async function baseline(): Promise<void> {
  const model = mockModel(longSessionScript(), { chunkSize: CHUNK });
  const tools = { noop: tool({ description: "does nothing", inputSchema: z.object({ step: z.number() }) }) };
  const messages: ModelMessage[] = [{ role: "user", content: "go" }];
  for (;;) {
    const result = streamText({ model, instructions: "You are a test.", messages, tools, maxRetries: 0 });
    const calls: Array<{ toolCallId: string; toolName: string; input: unknown }> = [];
    let text = "";
    for await (const part of result.stream) {
      if (part.type === "text-delta") text += part.text;
      else if (part.type === "tool-call") calls.push(part);
    }
    messages.push({
      role: "assistant",
      content: [
        { type: "text", text },
        ...calls.map((c) => ({ type: "tool-call" as const, toolCallId: c.toolCallId, toolName: c.toolName, input: c.input })),
      ],
    });
    if (calls.length === 0) break;
    messages.push({
      role: "tool",
      content: calls.map((c) => ({ type: "tool-result" as const, toolCallId: c.toolCallId, toolName: c.toolName, output: { type: "text" as const, value: "ok" } })),
    });
  }
}

let events = 0;
async function lathe(): Promise<void> {
  // Snapshots off: this measures the loop itself, not git (bench/snapshot.bench.ts measures that).
  const agent = createAgent({ model: mockModel(longSessionScript(), { chunkSize: CHUNK }), tools: [noopTool], instructions: "You are a test.", snapshots: false });
  agent.on("*", () => {
    events++;
  });
  const session = await agent.sessions.create();
  const { info } = await agent.prompt(session.id, "go");
  if (info.finish !== "stop") throw new Error(`unexpected finish ${info.finish}: ${JSON.stringify(info.error)}`);
  await agent.close();
}

const baseMs = await medianMs(baseline, 5, 1);
events = 0;
const start = performance.now();
await lathe();
const oneRunMs = performance.now() - start;
const eventsPerRun = events;
const latheMs = await medianMs(lathe, 5, 1);

report(import.meta.url, [
  {
    name: `${STEPS}-step session, ${DELTAS} deltas + 1 tool call per step`,
    value: latheMs,
    baseline: "minimal streamText loop",
    baselineValue: baseMs,
    target: "≤ 1.15×",
  },
  {
    name: "events delivered to a listener",
    value: Math.round(eventsPerRun / (oneRunMs / 1000)),
    unit: "events/s",
    note: `${eventsPerRun} events per run`,
  },
]);
