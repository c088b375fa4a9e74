import { mockModel, type MockModel } from "@lathe/mock";
import { demoTurn, type DemoModelOptions } from "../../cli/src/demo.ts";

/**
 * The CLI's scripted demo model, thinking out loud: each step of the demo comes with a line of
 * reasoning, so the browser shows reasoning streaming beside the text.
 */
export function webDemoModel(options: DemoModelOptions = {}): MockModel {
  const think = (call: Parameters<typeof demoTurn>[0]) => {
    const turn = demoTurn(call);
    const next = turn.toolCalls?.[0];
    const reasoning = next ? `Next I should use ${next.name} to make progress on the task.` : "I have what I need to answer.";
    return { ...turn, reasoning };
  };
  const script = Array.from({ length: 10_000 }, () => think);
  return mockModel(script, { chunkSize: 3, delayMs: options.delayMs ?? 20, provider: "lathe-demo", modelId: "scripted-demo" });
}
