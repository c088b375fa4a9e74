import { experimental_streamLanguageModelCall as streamLanguageModelCall, simulateReadableStream, type LanguageModel, type ModelMessage } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import type { LanguageModelV4CallOptions } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { PromptPrefix } from "./prompt-prefix.js";
import { cachingModel } from "../context/caching-model.js";
import { placeBreakpoints } from "../context/cache-breakpoints.js";
import { providerCaching } from "../context/cache-scheme.js";

// Breakpoints and the turn's prompt prefix together: each request still converts only its new
// messages, and the provider gets exactly the whole conversion with this request's breakpoints —
// none left over from an earlier request on the messages the prefix remembers.

const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };

function recordingModel(): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    provider: "anthropic.messages",
    modelId: "claude-sonnet-4-5",
    doStream: async () => ({
      stream: simulateReadableStream({
        chunks: [
          { type: "stream-start" as const, warnings: [] },
          { type: "finish" as const, finishReason: { unified: "stop" as const, raw: "stop" }, usage },
        ],
      }),
    }),
  });
}

const plan = { carrier: providerCaching(recordingModel(), "5m").carrier!, minTokens: 1 };
const system = "You are a careful agent. ".repeat(50);

async function send(model: LanguageModel, messages: ModelMessage[]): Promise<void> {
  const { stream } = await streamLanguageModelCall({ model, instructions: system, messages });
  for await (const part of stream) void part;
}

function step(n: number): ModelMessage[] {
  return [
    { role: "assistant", content: [{ type: "text", text: `step ${n}` }, { type: "tool-call", toolCallId: `c${n}`, toolName: "noop", input: { n } }] },
    { role: "tool", content: [{ type: "tool-result", toolCallId: `c${n}`, toolName: "noop", output: { type: "text", value: `ok ${n}` } }] },
  ];
}

const marks = (params: LanguageModelV4CallOptions) => params.prompt.flatMap((m, i) => ((m.providerOptions?.anthropic as { cacheControl?: unknown } | undefined)?.cacheControl ? [i] : []));

describe("breakpoints behind the prompt prefix", () => {
  it("convert only the new messages, mark each request afresh, and never mark what the prefix remembers", async () => {
    const base = recordingModel();
    const reference = recordingModel();
    const prefix = new PromptPrefix();
    const history: ModelMessage[] = [{ role: "user", content: "go" }];
    expect(cachingModel(base, plan)).toBe(cachingModel(base, plan));
    for (let n = 0; n < 6; n++) {
      const before = history.length;
      history.push(...step(n));
      const prepared = prefix.prepare(cachingModel(base, plan), history);
      expect(prepared.messages).toHaveLength(n === 0 ? history.length : history.length - before);
      await send(prepared.model, prepared.messages);
      await send(reference, history);
      const sent = base.doStreamCalls.at(-1)!;
      const expected = placeBreakpoints(reference.doStreamCalls.at(-1)!, plan);
      expect(sent.prompt).toEqual(expected.prompt);
      // The system prompt, where the last request ended, and the newest message: three, every time.
      expect(marks(sent)).toEqual([0, sent.prompt.length - 3, sent.prompt.length - 1]);
    }
  });
});
