// The offline demo: a scripted model (from @lathe/mock) that fixes a real bug in a small project
// created in a temporary folder. It runs the tests, reads the code, edits it and runs the tests
// again — through Lathe's real tools, permissions and storage — so a fresh checkout shows what Lathe
// does without an API key.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { mockModel, type MockModel, type MockTurn, type MockTurnInput } from "@lathe/mock";

/** What the demo asks the agent to do. */
export const DEMO_PROMPT = "The tests of this project fail. Find the bug and fix it.";

const MATH = `// Small arithmetic helpers.
export function add(a, b) {
  return a - b;
}

export function multiply(a, b) {
  return a * b;
}
`;

const TEST = `import assert from "node:assert/strict";
import { add, multiply } from "./src/math.js";

let failed = 0;
for (const [name, check] of [
  ["add(2, 3) is 5", () => assert.equal(add(2, 3), 5)],
  ["add(-1, 1) is 0", () => assert.equal(add(-1, 1), 0)],
  ["multiply(4, 5) is 20", () => assert.equal(multiply(4, 5), 20)],
]) {
  try {
    check();
    console.log("ok   " + name);
  } catch (error) {
    failed++;
    console.log("FAIL " + name + ": " + error.message.split("\\n")[0]);
  }
}
console.log(failed ? failed + " failing" : "all tests pass");
process.exitCode = failed ? 1 : 0;
`;

/** Creates the demo project in a new temporary folder and returns its path. */
export function createDemoWorkspace(): string {
  const dir = mkdtempSync(join(tmpdir(), "lathe-demo-"));
  mkdirSync(join(dir, "src"));
  writeFileSync(join(dir, "package.json"), `${JSON.stringify({ name: "demo", private: true, type: "module" }, null, 2)}\n`);
  writeFileSync(join(dir, "src", "math.js"), MATH);
  writeFileSync(join(dir, "test.js"), TEST);
  return dir;
}

const TASK_STEPS: MockTurn[] = [
  { text: "I'll run the tests first to see what fails.", toolCalls: [{ name: "bash", input: { command: "node test.js", description: "Run the tests" } }] },
  { text: "Two `add` checks fail. Let me read the code.", toolCalls: [{ name: "read", input: { path: "src/math.js" } }] },
  {
    text: "Found it: `add` subtracts. Fixing that.",
    toolCalls: [{ name: "edit", input: { path: "src/math.js", oldString: "  return a - b;", newString: "  return a + b;" } }],
  },
  { text: "Running the tests again.", toolCalls: [{ name: "bash", input: { command: "node test.js", description: "Run the tests" } }] },
  { text: "All three tests pass now. The bug was in `src/math.js`: `add` returned `a - b`; it now returns `a + b`." },
];

const OFF_SCRIPT =
  "This is Lathe's offline demo model, so it only knows one task: fixing the bug in this project. " +
  "Everything you saw was real, though — the tool calls ran in a temporary folder, the approvals went " +
  "through Lathe's permission engine, and the session is stored in SQLite, so `--resume` picks it up again. " +
  "To talk to a real model, set ANTHROPIC_API_KEY, OPENAI_API_KEY, or LATHE_BASE_URL (any OpenAI-compatible " +
  "server) and start the CLI again. Press Ctrl+C while I am talking to interrupt me.";

/** A model call, as the mock model hands it to a reactive turn. */
type ModelCall = Parameters<Extract<MockTurnInput, (...args: never[]) => unknown>>[0];
type PromptMessage = ModelCall["prompt"][number];

// What the user wrote: the environment Lathe adds to a prompt (date, folder listing) is not the request.
const textOf = (message: PromptMessage | undefined) =>
  message && Array.isArray(message.content)
    ? message.content.flatMap((part) => (part.type === "text" && !part.text.startsWith("<environment>") ? [part.text] : [])).join("")
    : typeof message?.content === "string"
      ? message.content
      : "";

const isTask = (request: string) => /\b(fix|bug|test)/.test(request.toLowerCase());

/** The demo's "thinking": the next step of the task, from what the conversation holds since the user's last message. */
export function demoTurn(call: ModelCall): MockTurn {
  const prompt = call.prompt;
  const users = prompt.flatMap((message, index) => (message.role === "user" ? [index] : []));
  const lastUser = users.at(-1) ?? -1;
  const request = textOf(prompt[lastUser]);
  const since = prompt.slice(lastUser + 1);
  const results = since.flatMap((message) => (message.role === "tool" ? message.content : []));
  const last = results[results.length - 1];
  if (last && last.type === "tool-result" && last.output.type !== "text" && last.output.type !== "json" && last.output.type !== "content") {
    const said = "value" in last.output && typeof last.output.value === "string" ? last.output.value : "the call was not allowed";
    return { text: `Understood — I stopped there. (${said.split("\n")[0]})` };
  }
  // The task's steps so far: the answers since the user asked for it (a message typed during the task
  // and steered into it does not start it again).
  const taskAt = users.findLast((index) => isTask(textOf(prompt[index])));
  const steps = taskAt === undefined ? 0 : prompt.slice(taskAt + 1).filter((message) => message.role === "assistant").length;
  if (isTask(request)) return TASK_STEPS[Math.min(since.filter((message) => message.role === "assistant").length, TASK_STEPS.length - 1)]!;
  const midTask = taskAt !== undefined && steps > 0 && steps < TASK_STEPS.length;
  if (!midTask) return { text: OFF_SCRIPT };
  // A message steered into the task: acknowledged once, and the task goes on.
  const step = TASK_STEPS[steps]!;
  return since.some((message) => message.role === "assistant") ? step : { ...step, text: `Noted: "${request}". ${step.text}` };
}

/** Options of {@link demoModel}. */
export interface DemoModelOptions {
  /** Milliseconds between streamed chunks, so the text visibly streams; default 25. */
  delayMs?: number;
}

/** The scripted demo model: answers every request with {@link demoTurn}. */
export function demoModel(options: DemoModelOptions = {}): MockModel {
  // The script is a long list of the same reactive turn: the demo answers as long as the user talks.
  const script = Array.from({ length: 10_000 }, () => demoTurn);
  return mockModel(script, { chunkSize: 3, delayMs: options.delayMs ?? 25, provider: "lathe-demo", modelId: "scripted-demo" });
}
