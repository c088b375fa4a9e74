import { CASSETTE_VERSION, toCassette, type Cassette, type CassetteData, type Interaction, type ModelSpecification } from "./cassette.js";
import { encodeError, encodeValue } from "./json-codec.js";
import { loose, type LooseCall, type RecordableModel } from "./model-versions.js";
import { normalizeRequest, requestKey, type NormalizeOptions } from "./normalize-request.js";

/** Options of {@link recordModel}. */
export interface RecordOptions extends NormalizeOptions {
  /**
   * Keep the interactions already in the cassette and add the new ones after them. Default false:
   * the first recorded call replaces the cassette's content, so re-running a test re-records it.
   */
  append?: boolean;
}

/**
 * Wraps an AI SDK model so that every call it answers is saved to a cassette: the normalised request
 * (prompt, tools, settings), a stable hash of it, and the streamed response. The cassette is saved
 * after each call completes, so a test that fails half-way still leaves what it recorded. Calls that
 * fail before streaming (an HTTP error) are passed on and not recorded; a stream the caller cancels
 * is not recorded either.
 *
 * Works with models of specification v2, v3 and v4; the returned model has the same specification.
 *
 * @example
 * ```ts
 * const model = process.env.RECORD
 *   ? recordModel(anthropic("claude-sonnet-4-5"), cassetteFile("test/cassettes/fix.json"))
 *   : replayModel(cassetteFile("test/cassettes/fix.json"));
 * ```
 */
export function recordModel<M extends RecordableModel>(model: M, cassette: Cassette | string, options: RecordOptions = {}): M {
  const target = toCassette(cassette);
  const inner = loose(model);
  const specificationVersion = inner.specificationVersion as ModelSpecification;
  let data: CassetteData | undefined;

  const save = (interaction: Interaction) => {
    data ??= options.append ? (target.load() ?? { version: CASSETTE_VERSION, interactions: [] }) : { version: CASSETTE_VERSION, interactions: [] };
    data.interactions.push(interaction);
    target.save(data);
  };
  const describe = (call: LooseCall) => {
    const request = normalizeRequest(call, options);
    return { key: requestKey(request), model: { provider: inner.provider, modelId: inner.modelId }, specificationVersion, request };
  };

  const wrapper = {
    specificationVersion: inner.specificationVersion,
    provider: inner.provider,
    modelId: inner.modelId,
    get supportedUrls() {
      return inner.supportedUrls;
    },
    async doGenerate(call: LooseCall) {
      const result = await inner.doGenerate(call);
      const { request: _request, response, ...rest } = result;
      save({ ...describe(call), response: { type: "generate", result: encodeValue({ ...rest, response: keepResponseFacts(response) }) } });
      return result;
    },
    async doStream(call: LooseCall) {
      const about = describe(call);
      const result = await inner.doStream(call);
      const parts: unknown[] = [];
      const reader = result.stream.getReader();
      const stream = new ReadableStream<unknown>({
        async pull(controller) {
          let next: Awaited<ReturnType<typeof reader.read>>;
          try {
            next = await reader.read();
          } catch (error) {
            save({ ...about, response: { type: "stream", parts, error: encodeError(error) } });
            controller.error(error);
            return;
          }
          if (next.done) {
            save({ ...about, response: { type: "stream", parts } });
            controller.close();
            return;
          }
          // Raw provider chunks are transport detail, and would tie the cassette to one provider's wire format.
          if ((next.value as { type?: unknown }).type !== "raw") parts.push(encodeValue(next.value));
          controller.enqueue(next.value);
        },
        cancel(reason) {
          return reader.cancel(reason);
        },
      });
      return { ...result, stream };
    },
  };
  return wrapper as unknown as M;
}

// Response headers and bodies are transport detail (and may hold account information); ids and
// timestamps are kept so a replayed response looks like the recorded one.
function keepResponseFacts(response: unknown): unknown {
  if (response === null || typeof response !== "object") return undefined;
  const { headers: _headers, body: _body, ...facts } = response as Record<string, unknown>;
  return facts;
}
