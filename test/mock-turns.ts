import { simulateReadableStream } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import type { LanguageModelV4StreamPart } from "@ai-sdk/provider";

// Scripted turns for the AI SDK's own MockLanguageModelV4, at the provider stream's level.

/** The usage every scripted step reports: 12 input tokens (2 from cache), 5 output. */
export const stepUsage = {
  inputTokens: { total: 12, noCache: 10, cacheRead: 2, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};

/** A step that answers `text` in one delta. */
export function textTurn(text: string): LanguageModelV4StreamPart[] {
  return [
    { type: "stream-start", warnings: [] },
    { type: "text-start", id: "t" },
    { type: "text-delta", id: "t", delta: text },
    { type: "text-end", id: "t" },
    { type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage: stepUsage },
  ];
}

/** A step that makes one tool call. */
export function callTurn(id: string, toolName: string, input: unknown): LanguageModelV4StreamPart[] {
  return [
    { type: "stream-start", warnings: [] },
    { type: "tool-call", toolCallId: id, toolName, input: JSON.stringify(input) },
    { type: "finish", finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage: stepUsage },
  ];
}

/** A mock model answering each request with the next scripted turn. */
export function scripted(...turns: LanguageModelV4StreamPart[][]): MockLanguageModelV4 {
  return new MockLanguageModelV4({ doStream: turns.map((chunks) => ({ stream: simulateReadableStream({ chunks }) })) });
}
