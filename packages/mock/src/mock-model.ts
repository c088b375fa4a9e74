import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamPart,
  LanguageModelV4StreamResult,
  LanguageModelV4Usage,
} from "@ai-sdk/provider";
import type { MockTurn, MockTurnInput } from "./script.js";

/** Options of {@link mockModel}. */
export interface MockModelOptions {
  /** Model id reported to the AI SDK; default `mock-model`. */
  modelId?: string;
  /** Provider name reported to the AI SDK; default `mock`. */
  provider?: string;
  /** Characters per streamed text chunk; default 8. */
  chunkSize?: number;
  /** Milliseconds between chunks; default 0 (chunks are still delivered one at a time). */
  delayMs?: number;
}

/** Thrown when the mock model is called more often than its script has turns. */
export class MockScriptExhaustedError extends Error {
  override readonly name = "MockScriptExhaustedError";
  constructor(
    readonly turns: number,
    readonly call: LanguageModelV4CallOptions,
  ) {
    super(
      `The mock model was called ${turns + 1} times but its script has only ${turns} turn(s). ` +
        `Last message of the prompt: ${JSON.stringify(call.prompt[call.prompt.length - 1])?.slice(0, 500)}`,
    );
  }
}

/** A scripted mock model: an AI SDK `LanguageModelV4` that also records the calls it received. */
export interface MockModel extends LanguageModelV4 {
  /** Every call the model received, in order (prompt, tools, settings). */
  readonly calls: LanguageModelV4CallOptions[];
  /** How many turns of the script are left. */
  readonly remaining: number;
}

/**
 * Builds a scripted mock model for tests: each call answers with the next turn of the script,
 * streamed in realistic chunks with usage.
 *
 * @example
 * ```ts
 * const model = mockModel([
 *   { toolCalls: [{ name: "read", input: { path: "a.ts" } }] },
 *   { text: "The file exports one function." },
 * ]);
 * ```
 */
export function mockModel(script: MockTurnInput[], options: MockModelOptions = {}): MockModel {
  const calls: LanguageModelV4CallOptions[] = [];
  const chunkSize = Math.max(1, options.chunkSize ?? 8);
  const delayMs = options.delayMs ?? 0;
  let next = 0;
  let callCounter = 0;

  const turnFor = async (call: LanguageModelV4CallOptions): Promise<MockTurn> => {
    calls.push(call);
    const input = script[next];
    if (input === undefined) throw new MockScriptExhaustedError(script.length, call);
    const index = next++;
    const turn = typeof input === "function" ? await input(call, index) : input;
    if (turn.throwOnStart !== undefined) throw turn.throwOnStart;
    return turn;
  };

  const model: MockModel = {
    specificationVersion: "v4",
    provider: options.provider ?? "mock",
    modelId: options.modelId ?? "mock-model",
    supportedUrls: {},
    calls,
    get remaining() {
      return script.length - next;
    },
    async doStream(call: LanguageModelV4CallOptions): Promise<LanguageModelV4StreamResult> {
      const turn = await turnFor(call);
      const parts = streamParts(turn, call, chunkSize, () => `mock_call_${++callCounter}`);
      return { stream: toStream(parts, turn, delayMs, call.abortSignal) };
    },
    async doGenerate(call: LanguageModelV4CallOptions): Promise<LanguageModelV4GenerateResult> {
      const turn = await turnFor(call);
      if (turn.error !== undefined) throw turn.error;
      const content: LanguageModelV4GenerateResult["content"] = [];
      if (turn.reasoning) content.push({ type: "reasoning", text: turn.reasoning });
      if (turn.text) content.push({ type: "text", text: turn.text });
      for (const tc of turn.toolCalls ?? []) {
        content.push({ type: "tool-call", toolCallId: tc.id ?? `mock_call_${++callCounter}`, toolName: tc.name, input: rawInput(tc.input) });
      }
      return { content, finishReason: finishReason(turn), usage: usage(turn, call), warnings: [] };
    },
  };
  return model;
}

function rawInput(input: unknown): string {
  return typeof input === "string" ? input : JSON.stringify(input ?? {});
}

function finishReason(turn: MockTurn) {
  return { unified: turn.finishReason ?? (turn.toolCalls?.length ? "tool-calls" : "stop"), raw: undefined } as const;
}

// A rough 4-characters-per-token estimate, so tests that do not care still see plausible usage.
const estimateTokens = (text: string) => Math.ceil(text.length / 4);

function usage(turn: MockTurn, call: LanguageModelV4CallOptions): LanguageModelV4Usage {
  const u = turn.usage ?? {};
  const cacheRead = u.cacheRead ?? 0;
  const cacheWrite = u.cacheWrite ?? 0;
  const noCache = u.input ?? estimateTokens(JSON.stringify(call.prompt));
  const reasoning = u.reasoning ?? estimateTokens(turn.reasoning ?? "");
  const text = u.output ?? estimateTokens((turn.text ?? "") + JSON.stringify(turn.toolCalls ?? []));
  return {
    inputTokens: { total: noCache + cacheRead + cacheWrite, noCache, cacheRead, cacheWrite },
    outputTokens: { total: text + reasoning, text, reasoning },
  };
}

function chunks(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

function streamParts(
  turn: MockTurn,
  call: LanguageModelV4CallOptions,
  chunkSize: number,
  newCallId: () => string,
): LanguageModelV4StreamPart[] {
  const parts: LanguageModelV4StreamPart[] = [{ type: "stream-start", warnings: [] }];
  if (turn.reasoning) {
    parts.push({ type: "reasoning-start", id: "r0" });
    for (const delta of chunks(turn.reasoning, chunkSize)) parts.push({ type: "reasoning-delta", id: "r0", delta });
    parts.push({ type: "reasoning-end", id: "r0" });
  }
  if (turn.text) {
    parts.push({ type: "text-start", id: "t0" });
    for (const delta of chunks(turn.text, chunkSize)) parts.push({ type: "text-delta", id: "t0", delta });
    parts.push({ type: "text-end", id: "t0" });
  }
  for (const tc of turn.toolCalls ?? []) {
    const id = tc.id ?? newCallId();
    const input = rawInput(tc.input);
    parts.push({ type: "tool-input-start", id, toolName: tc.name });
    for (const delta of chunks(input, chunkSize * 2)) parts.push({ type: "tool-input-delta", id, delta });
    parts.push({ type: "tool-input-end", id });
    parts.push({ type: "tool-call", toolCallId: id, toolName: tc.name, input });
  }
  if (!turn.omitFinish && turn.error === undefined) {
    parts.push({ type: "finish", finishReason: finishReason(turn), usage: usage(turn, call) });
  }
  return parts;
}

function toStream(
  parts: LanguageModelV4StreamPart[],
  turn: MockTurn,
  delayMs: number,
  signal: AbortSignal | undefined,
): ReadableStream<LanguageModelV4StreamPart> {
  let index = 0;
  return new ReadableStream<LanguageModelV4StreamPart>({
    async pull(controller) {
      if (signal?.aborted) {
        controller.error(signal.reason ?? new DOMException("Aborted", "AbortError"));
        return;
      }
      if (delayMs > 0 && index > 0) await sleep(delayMs, signal);
      const part = parts[index++];
      if (part) {
        controller.enqueue(part);
      } else if (turn.error !== undefined) {
        controller.error(turn.error);
      } else {
        controller.close();
      }
    },
  });
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
  });
}
