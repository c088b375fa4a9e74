import { experimental_streamLanguageModelCall as streamLanguageModelCall, type LanguageModelStreamPart, type ToolSet } from "ai";
import type { StepRequest } from "./step-request.js";
import { optional } from "./optional.js";
import { ModelCallTelemetry } from "./model-call-telemetry.js";
import { reportModelWarnings } from "./model-warnings.js";
import { StepFraming } from "./step-framing.js";
import { cachingModel } from "../context/caching-model.js";

/** What a step's stream yields: the AI SDK's parts of one model call, or that the request was aborted. */
export type ModelCallPart = LanguageModelStreamPart<ToolSet> | { type: "abort" };

/**
 * One model request as a stream of parts, through the AI SDK's single-call primitive
 * (`streamLanguageModelCall`, what `streamText` runs for each of its steps): the prompt converted,
 * tools offered, tool calls parsed and validated against their schemas, provider errors normalised
 * and usage counted exactly as `streamText` does — without the multi-step machinery Lathe does not
 * use (approval collection over the whole history, step stitching, a buffered copy of the stream
 * and half a dozen stream transforms per part), which made each request cost more than the
 * model's own stream.
 *
 * With `request.prefix`, only the messages added since the turn's last request are converted (see
 * `PromptPrefix`) — unless telemetry records the prompt, which must then see all of it. With
 * `request.telemetry`, the call is reported to the AI SDK's integrations as `streamText` reports it
 * (see `model-call-telemetry.ts`); so are calls when the host registered integrations with the
 * SDK's `registerTelemetry`, as under `streamText`. The parts are framed as `streamText` frames a
 * step (see `step-framing.ts`). An abort ends the stream at once — while the request is being set
 * up, or with a read pending even when the provider's body never settles — with an `abort` part; a
 * failure to start becomes an `error` part.
 */
export async function* streamModelCall(request: StepRequest): AsyncGenerator<ModelCallPart> {
  const { params, signal } = request;
  const telemetry = ModelCallTelemetry.for(request.telemetry);
  const prefix = telemetry?.recordsInputs ? undefined : request.prefix;
  // Breakpoints go on the final prompt, behind the remembered prefix: the wrapper sits innermost.
  const base = request.cache?.breakpoints ? cachingModel(request.model, request.cache.breakpoints) : request.model;
  const { model, messages } = prefix ? prefix.prepare(base, request.messages) : { model: base, messages: request.messages };
  telemetry?.start(request.model, request.instructions, request.messages, params);

  // Listening from the start: an abort while the request is still being set up (a provider or a
  // middleware that ignores the signal) ends the step at once too.
  let reader: ReadableStreamDefaultReader<LanguageModelStreamPart<ToolSet>> | undefined;
  let onAbort!: () => void;
  const aborted = new Promise<undefined>((resolve) => {
    onAbort = () => {
      resolve(undefined);
      if (reader) void reader.cancel(signal.reason).catch(() => {});
    };
  });
  if (signal.aborted) onAbort();
  else signal.addEventListener("abort", onAbort, { once: true });

  const framing = new StepFraming();
  let finished = false;
  try {
    const starting = streamLanguageModelCall({
      model,
      instructions: request.instructions,
      messages,
      ...(request.tools ? { tools: request.tools } : {}),
      ...(request.output ? { output: request.output } : {}),
      abortSignal: signal,
      ...optional("temperature", params.temperature),
      ...optional("topP", params.topP),
      ...optional("maxOutputTokens", params.maxOutputTokens),
      ...(Object.keys(params.providerOptions).length > 0 ? { providerOptions: params.providerOptions as never } : {}),
      ...(Object.keys(params.headers).length > 0 ? { headers: params.headers } : {}),
      ...telemetry?.callOptions(),
    });
    const call = await Promise.race([starting, aborted]);
    if (!call || signal.aborted) {
      // The call may still start later: its stream is cancelled then.
      void starting.then((late) => late.stream.cancel(signal.reason).catch(() => {}), () => {});
      yield* ended(telemetry, { type: "abort" });
      return;
    }
    reader = call.stream.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (signal.aborted) {
        yield* ended(telemetry, { type: "abort" });
        return;
      }
      if (done) {
        finished = true;
        for (const part of framing.close()) {
          telemetry?.observe(part);
          yield part;
        }
        telemetry?.end(undefined);
        return;
      }
      const start = framing.frame(value);
      if (start) yield start;
      telemetry?.observe(value);
      if (value.type === "model-call-start") reportModelWarnings(value.warnings, request.model);
      yield value;
    }
  } catch (error) {
    yield* ended(telemetry, signal.aborted ? { type: "abort" } : { type: "error", error });
  } finally {
    signal.removeEventListener("abort", onAbort);
    // A consumer that stopped early (or an abort) leaves the provider's stream to be cancelled.
    if (!finished && reader) void reader.cancel(signal.reason).catch(() => {});
  }
}

/** The last part of a call that failed or was aborted, reported to telemetry first. */
function* ended(telemetry: ModelCallTelemetry | undefined, part: { type: "abort" } | { type: "error"; error: unknown }): Generator<ModelCallPart> {
  telemetry?.end(part.type === "abort" ? { aborted: true } : { error: part.error });
  yield part;
}
