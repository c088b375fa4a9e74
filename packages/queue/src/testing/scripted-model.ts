import type { LanguageModelV4CallOptions } from "@ai-sdk/provider";
import { mockModel, type MockTurn } from "@lathe/mock";

// The model of the queue's tests and benchmark: it answers any prompt, for ever, from the prompt
// itself, so that every worker process can answer any session with the same script.

/** What one step reports as usage: fixed, so a session's usage is known exactly. */
export const STEP_USAGE = { input: 10, output: 5 } as const;

/** The text of the last user message of a call. */
function lastUserText(call: LanguageModelV4CallOptions): string {
  for (let i = call.prompt.length - 1; i >= 0; i--) {
    const message = call.prompt[i]!;
    if (message.role !== "user") continue;
    return message.content.flatMap((c) => (c.type === "text" ? [c.text] : [])).join("");
  }
  return "";
}

/**
 * A scripted model: a prompt containing `run: <command>` first calls the `bash` tool with that
 * command, then answers; a prompt containing `ask: <target>` calls the `deploy` tool; any other
 * prompt is answered at once. Every answer is `answer to <prompt>`, streamed in small chunks.
 */
export function scriptedModel(options: { latencyMs?: number; chunkSize?: number } = {}) {
  const turn = async (call: LanguageModelV4CallOptions): Promise<MockTurn> => {
    if (options.latencyMs) await new Promise((r) => setTimeout(r, options.latencyMs));
    const text = lastUserText(call);
    const last = call.prompt[call.prompt.length - 1];
    const afterTool = last?.role === "tool";
    const command = /run: (.+)$/.exec(text)?.[1];
    const target = /ask: (\S+)/.exec(text)?.[1];
    if (!afterTool && command) return { text: `running for ${text}`, toolCalls: [{ name: "bash", input: { command, description: "run it" } }], usage: STEP_USAGE };
    if (!afterTool && target) return { text: `deploying for ${text}`, toolCalls: [{ name: "deploy", input: { target } }], usage: STEP_USAGE };
    return { text: `answer to ${text}`, usage: STEP_USAGE };
  };
  return mockModel(Array.from({ length: 100_000 }, () => turn), { chunkSize: options.chunkSize ?? 4 });
}
