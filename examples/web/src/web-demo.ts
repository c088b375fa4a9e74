import { mockModel, type MockModel } from "@lathe/mock";
import { demoTurn, type DemoModelOptions } from "../../cli/src/demo.ts";

// The demo's last answer, as a browser shows it: Markdown with a list and a highlighted code block.
const FIX_SUMMARY = [
  "",
  "",
  "What changed:",
  "",
  "- `src/math.js`: `add` now adds",
  "- the tests: **3 of 3 pass**",
  "",
  "```js",
  "export function add(a, b) {",
  "  return a + b;",
  "}",
  "```",
].join("\n");

/**
 * The CLI's scripted demo model, thinking out loud: each step of the demo comes with a line of
 * reasoning, so the browser shows reasoning streaming beside the text; the final answer adds a
 * Markdown summary of the fix.
 */
export function webDemoModel(options: DemoModelOptions = {}): MockModel {
  const think = (call: Parameters<typeof demoTurn>[0]) => {
    const turn = demoTurn(call);
    const next = turn.toolCalls?.[0];
    const reasoning = next ? `Next I should use ${next.name} to make progress on the task.` : "I have what I need to answer.";
    const text = turn.text?.startsWith("All three tests pass") ? `${turn.text}${FIX_SUMMARY}` : turn.text;
    return { ...turn, ...(text !== undefined ? { text } : {}), reasoning };
  };
  const script = Array.from({ length: 10_000 }, () => think);
  return mockModel(script, { chunkSize: 3, delayMs: options.delayMs ?? 20, provider: "lathe-demo", modelId: "scripted-demo" });
}
