// The scripted long session the loop and telemetry benchmarks share: 200 steps of 100 text deltas
// and one no-op tool call each, then an answer.
import { z } from "zod";
import type { MockTurn } from "@lathe/mock";
import { defineTool } from "@lathe/tools";

export const STEPS = 200;
export const DELTAS = 100;
/** Characters per streamed text delta. */
export const CHUNK = 4;

/** The session's model turns. */
export function longSessionScript(): MockTurn[] {
  const turns: MockTurn[] = [];
  for (let i = 0; i < STEPS; i++) {
    turns.push({ text: "abcd".repeat(DELTAS), toolCalls: [{ name: "noop", input: { step: i } }], usage: { input: 100, output: 50 } });
  }
  turns.push({ text: "done", usage: { input: 100, output: 1 } });
  return turns;
}

/** A read-only tool taking `parameters` that does nothing and returns `output`. */
export function defineNoopTool<T extends z.ZodType>(parameters: T, output: string) {
  return defineTool({
    name: "noop",
    description: "does nothing",
    parameters,
    readOnly: true,
    async execute() {
      return { title: "noop", output };
    },
  });
}

/** The tool every step calls. */
export const noopTool = defineNoopTool(z.object({ step: z.number() }), "ok");
