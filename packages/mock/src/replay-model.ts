import type { LanguageModelV4 } from "@ai-sdk/provider";
import { toCassette, type Cassette, type CassetteData, type Interaction } from "./cassette.js";
import { CassetteMismatchError, CassetteNotFoundError } from "./errors.js";
import { decodeError, decodeValue, type EncodedError } from "./json-codec.js";
import type { LooseCall, RecordableModel } from "./model-versions.js";
import { normalizeRequest, requestKey, type NormalizeOptions } from "./normalize-request.js";
import { closestRequest } from "./request-diff.js";

/** Options of {@link replayModel}: the same normalisation the cassette was recorded with. */
export interface ReplayOptions extends NormalizeOptions {
  /** Model id reported to the AI SDK; default the recorded one. */
  modelId?: string;
  /** Provider name reported to the AI SDK; default the recorded one. */
  provider?: string;
}

/** A model answering from a cassette, typed as the v4 specification (it presents the recorded one). */
export interface ReplayModel extends LanguageModelV4 {
  /** Keys of the requests answered so far, in order. */
  readonly replayed: readonly string[];
  /** The requests that had no recording (each also failed its call with a {@link CassetteMismatchError}). */
  readonly misses: readonly CassetteMismatchError[];
}

/**
 * A model that answers from a cassette made by {@link recordModel}: each request is normalised and
 * hashed the same way, and the recorded response is streamed back part by part, deterministically
 * and offline. The same request made again gets the next recording of it (the last one once they
 * are used up). A request that was never recorded fails the call with a
 * {@link CassetteMismatchError} whose message is a readable diff against the nearest recorded
 * request; Lathe reports it as the assistant message's error.
 *
 * @throws {@link CassetteNotFoundError} when the cassette holds nothing (a file that does not exist).
 */
export function replayModel(cassette: Cassette | string, options: ReplayOptions = {}): ReplayModel {
  const source = toCassette(cassette);
  const data: CassetteData | undefined = source.load();
  if (!data) throw new CassetteNotFoundError(source.name);
  const byKey = new Map<string, Interaction[]>();
  for (const interaction of data.interactions) {
    const list = byKey.get(interaction.key) ?? [];
    list.push(interaction);
    byKey.set(interaction.key, list);
  }
  const used = new Map<string, number>();
  const replayed: string[] = [];
  const misses: CassetteMismatchError[] = [];
  const first = data.interactions[0];

  const find = (call: LooseCall): Interaction => {
    const request = normalizeRequest(call, options);
    const key = requestKey(request);
    const recordings = byKey.get(key);
    if (!recordings) {
      const error = new CassetteMismatchError(source.name, key, request, closestRequest(request, data.interactions));
      misses.push(error);
      throw error;
    }
    const count = used.get(key) ?? 0;
    used.set(key, count + 1);
    replayed.push(key);
    return recordings[Math.min(count, recordings.length - 1)]!;
  };

  const model = {
    specificationVersion: first?.specificationVersion ?? "v4",
    provider: options.provider ?? first?.model.provider ?? "replay",
    modelId: options.modelId ?? first?.model.modelId ?? "replay",
    supportedUrls: {},
    replayed,
    misses,
    async doGenerate(call: LooseCall) {
      const { response } = find(call);
      if (response.type !== "generate") return generateFromStream(response.parts);
      return decodeValue(response.result);
    },
    async doStream(call: LooseCall) {
      const { response } = find(call);
      if (response.type !== "stream") return { stream: replayStream(streamFromGenerate(response.result), undefined, call.abortSignal) };
      return { stream: replayStream(response.parts, response.error, call.abortSignal) };
    },
  };
  return model as unknown as ReplayModel;
}

function replayStream(parts: unknown[], error: unknown, signal: AbortSignal | undefined): ReadableStream<unknown> {
  let index = 0;
  return new ReadableStream<unknown>({
    pull(controller) {
      if (signal?.aborted) {
        controller.error(signal.reason ?? new DOMException("Aborted", "AbortError"));
        return;
      }
      if (index < parts.length) {
        controller.enqueue(decodeValue(parts[index++]));
      } else if (error !== undefined) {
        controller.error(decodeError(error as EncodedError));
      } else {
        controller.close();
      }
    },
  });
}

// A recording made with streaming can answer a generate call: the parts are assembled into content.
function generateFromStream(encoded: unknown[]): Record<string, unknown> {
  const parts = encoded.map(decodeValue) as Array<Record<string, unknown>>;
  const content: Array<Record<string, unknown>> = [];
  const texts = new Map<string, Record<string, unknown>>();
  let finish: Record<string, unknown> | undefined;
  for (const part of parts) {
    switch (part.type) {
      case "text-start":
      case "reasoning-start": {
        const item = { type: part.type === "text-start" ? "text" : "reasoning", text: "" };
        texts.set(`${part.type}:${String(part.id)}`, item);
        content.push(item);
        break;
      }
      case "text-delta":
      case "reasoning-delta": {
        const kind = part.type === "text-delta" ? "text-start" : "reasoning-start";
        const item = texts.get(`${kind}:${String(part.id)}`);
        if (item) item.text = `${String(item.text)}${String(part.delta ?? "")}`;
        break;
      }
      case "tool-call":
      case "file":
      case "source":
        content.push(part);
        break;
      case "finish":
        finish = part;
        break;
    }
  }
  return { content, finishReason: finish?.finishReason, usage: finish?.usage, warnings: [] };
}

// A recording made with generate can answer a streaming call: its content becomes stream parts.
function streamFromGenerate(encoded: unknown): unknown[] {
  const result = (encoded ?? {}) as Record<string, unknown>;
  const parts: unknown[] = [{ type: "stream-start", warnings: [] }];
  const content = Array.isArray(result.content) ? (result.content as Array<Record<string, unknown>>) : [];
  content.forEach((item, index) => {
    if (item.type === "text" || item.type === "reasoning") {
      const id = `${String(item.type)}-${index}`;
      parts.push({ type: `${String(item.type)}-start`, id }, { type: `${String(item.type)}-delta`, id, delta: item.text }, { type: `${String(item.type)}-end`, id });
    } else {
      parts.push(item);
    }
  });
  parts.push({ type: "finish", finishReason: result.finishReason, usage: result.usage });
  return parts;
}
