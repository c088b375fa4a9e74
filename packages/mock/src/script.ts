import type { LanguageModelV4CallOptions, LanguageModelV4FinishReason } from "@ai-sdk/provider";

/** A tool call the mock model makes. */
export interface MockToolCall {
  /** The tool's name. */
  name: string;
  /** The input, as an object (sent as JSON) or as raw text (sent as is, e.g. to test invalid JSON). */
  input: unknown;
  /** The call id; generated when absent. */
  id?: string;
}

/** Token usage a turn reports. Missing figures are estimated from the prompt and the answer. */
export interface MockUsage {
  input?: number;
  output?: number;
  reasoning?: number;
  cacheRead?: number;
  cacheWrite?: number;
}

/**
 * One answer of the mock model: reasoning, then text, then tool calls, each streamed in chunks, and
 * a finish with usage. A turn with `error` streams what it has and then fails with that error
 * (`throwOnStart` fails before anything is streamed, as an HTTP error would).
 */
export interface MockTurn {
  reasoning?: string;
  text?: string;
  toolCalls?: MockToolCall[];
  /** Default: `tool-calls` when the turn has tool calls, else `stop`. */
  finishReason?: LanguageModelV4FinishReason["unified"];
  usage?: MockUsage;
  /** Fail the stream with this error after the content. */
  error?: unknown;
  /** Fail the call itself with this error before streaming anything. */
  throwOnStart?: unknown;
  /** End the stream without a finish part (a cut connection). */
  omitFinish?: boolean;
}

/** A turn, or a function that builds one from the call it answers (to react to the prompt). */
export type MockTurnInput = MockTurn | ((call: LanguageModelV4CallOptions, index: number) => MockTurn | Promise<MockTurn>);
