import { randomUUID } from "node:crypto";
import type { LanguageModel, LanguageModelStreamPart, LanguageModelUsage, ModelMessage, SystemModelMessage, Telemetry, TelemetryOptions, ToolSet } from "ai";
import type { ChatParams } from "../agents/hooks.js";
import { NULL_USAGE } from "./step-framing.js";
import { redactedError } from "./error-facts.js";

/** The options of `streamLanguageModelCall` that carry telemetry. */
export interface CallTelemetryOptions {
  callId: string;
  executeLanguageModelCallInTelemetryContext: NonNullable<Telemetry["executeLanguageModelCall"]>;
  onLanguageModelCallStart: NonNullable<Telemetry["onLanguageModelCallStart"]>;
  onLanguageModelCallEnd: NonNullable<Telemetry["onLanguageModelCallEnd"]>;
}

/**
 * Reports one model call to the AI SDK's telemetry integrations (`@ai-sdk/otel` for Lathe's tracer)
 * the way `streamText` reports a call of one step: the operation starts, its step starts, the
 * single-call primitive reports the provider call itself (the `chat …` span, run in its context),
 * and the step and the operation end with the call's finish, usage and output — or with its error
 * or abort. So the spans under a `lathe.step` are the SDK's own, as they were when each step ran
 * through `streamText`.
 */
export class ModelCallTelemetry {
  readonly callId = `lathe-${randomUUID()}`;
  private readonly integrations: Telemetry[];
  private readonly base: { callId: string; recordInputs: boolean; recordOutputs: boolean; functionId: string | undefined };
  private text = "";
  private readonly toolCalls: unknown[] = [];
  private finish: Extract<LanguageModelStreamPart<ToolSet>, { type: "model-call-end" }> | undefined;
  private failure: { error: unknown } | undefined;
  /** The provider call as reported: started (with what it was), and whether the primitive reported its end. */
  private call: { provider: string; modelId: string; started: number; ended: boolean } | undefined;

  /**
   * The reporter of one call, or undefined when nothing would hear it: Lathe's telemetry off (or
   * `isEnabled: false`) and no integration registered with the SDK's `registerTelemetry` — the
   * integrations `streamText` falls back to as well.
   */
  static for(options: TelemetryOptions | undefined): ModelCallTelemetry | undefined {
    if (options?.isEnabled === false) return undefined;
    const given = options?.integrations;
    const integrations = given === undefined ? registeredIntegrations() : Array.isArray(given) ? [...(given as Telemetry[])] : [given as Telemetry];
    return integrations.length > 0 ? new ModelCallTelemetry(options ?? {}, integrations) : undefined;
  }

  private constructor(options: TelemetryOptions, integrations: Telemetry[]) {
    this.integrations = integrations;
    this.base = { callId: this.callId, recordInputs: options.recordInputs !== false, recordOutputs: options.recordOutputs !== false, functionId: options.functionId };
  }

  /** Whether the integrations record the prompt (then the call must be given its whole history). */
  get recordsInputs(): boolean {
    return this.base.recordInputs;
  }

  /** The operation and its step start, with what the request holds. */
  start(model: LanguageModel, instructions: string | SystemModelMessage[], messages: ModelMessage[], params: ChatParams): void {
    const provider = typeof model === "string" ? "gateway" : model.provider;
    const modelId = typeof model === "string" ? model : model.modelId;
    const settings = { maxOutputTokens: params.maxOutputTokens, temperature: params.temperature, topP: params.topP, headers: params.headers };
    this.each((t) => t.onStart?.({ ...this.base, operationId: "ai.streamText", provider, modelId, instructions, messages, ...settings } as never));
    this.each((t) => t.onStepStart?.({ ...this.base, stepNumber: 0, steps: [], provider, modelId, instructions, messages } as never));
  }

  /** What `streamLanguageModelCall` needs to report the provider call to the same integrations. */
  callOptions(): CallTelemetryOptions {
    return {
      callId: this.callId,
      executeLanguageModelCallInTelemetryContext: ({ callId, execute }) =>
        this.integrations.reduceRight<() => PromiseLike<never>>(
          (inner, t) => (t.executeLanguageModelCall ? () => t.executeLanguageModelCall!({ callId, execute: inner }) as PromiseLike<never> : inner),
          execute as () => PromiseLike<never>,
        )(),
      // The call's own events as the primitive makes them: the integrations know the call's settings from its start.
      onLanguageModelCallStart: (event) => {
        this.call = { provider: event.provider, modelId: event.modelId, started: Date.now(), ended: false };
        this.each((t) => t.onLanguageModelCallStart?.(event as never));
      },
      onLanguageModelCallEnd: (event) => {
        if (this.call) this.call.ended = true;
        this.each((t) => t.onLanguageModelCallEnd?.(event));
      },
    };
  }

  /** Keeps what the step's end reports: the finish, and (when outputs are recorded) the text and tool calls. */
  observe(part: LanguageModelStreamPart<ToolSet> | { type: "abort" }): void {
    if (part.type === "model-call-end") this.finish = part;
    else if (part.type === "error") this.failure ??= { error: part.error };
    else if (!this.base.recordOutputs) return;
    else if (part.type === "text-delta") this.text += part.text;
    else if (part.type === "tool-call") this.toolCalls.push(part);
  }

  /** The step and the operation end: with the call's finish, or with `error` (given, or streamed), or as aborted. */
  end(given: { error: unknown } | { aborted: true } | undefined): void {
    const outcome = given ?? this.failure;
    if (outcome && "error" in outcome) {
      // The integrations record an error's message and stack whatever recordOutputs says: without
      // contents they get a stand-in carrying its name and code alone.
      const contents = this.base.recordInputs && this.base.recordOutputs;
      const event = { ...this.base, error: contents ? outcome.error : redactedError(outcome.error) };
      this.each((t) => t.onStepError?.(event as never));
      this.each((t) => t.onError?.(event));
      return;
    }
    if (outcome) {
      this.each((t) => t.onAbort?.({ ...this.base, steps: [] } as never));
      return;
    }
    const usage: LanguageModelUsage = this.finish?.usage ?? NULL_USAGE;
    const finishReason = this.finish?.finishReason ?? "other";
    const providerMetadata = this.finish?.providerMetadata;
    // A stream that stopped without a finish never had its provider call reported ended: end it here.
    if (this.call && !this.call.ended) {
      const responseTimeMs = Date.now() - this.call.started;
      const performance = { responseTimeMs, effectiveOutputTokensPerSecond: 0, effectiveTotalTokensPerSecond: 0, outputTokensPerSecond: undefined, inputTokensPerSecond: undefined, timeToFirstOutputMs: undefined };
      const event = { callId: this.callId, provider: this.call.provider, modelId: this.call.modelId, finishReason, usage, content: [], responseId: undefined, performance };
      this.each((t) => t.onLanguageModelCallEnd?.(event as never));
    }
    const step = { ...this.base, stepNumber: 0, finishReason, usage, providerMetadata };
    this.each((t) => t.onStepEnd?.(step as never));
    this.each((t) =>
      t.onEnd?.({
        ...this.base,
        finishReason,
        usage,
        totalUsage: usage,
        text: this.text,
        toolCalls: this.toolCalls,
        toolResults: [],
        files: [],
        steps: [],
        finalStep: { reasoning: [], providerMetadata },
      } as never),
    );
  }

  /** Calls every integration; one that throws never fails the request (telemetry is not the work). */
  private each(report: (integration: Telemetry) => unknown): void {
    for (const integration of this.integrations) {
      try {
        const result = report(integration) as PromiseLike<unknown> | undefined;
        if (result && typeof result.then === "function") result.then(undefined, () => {});
      } catch {
        // Ignored, as above.
      }
    }
  }
}

/** The integrations registered with the AI SDK's `registerTelemetry` (kept on a global by the SDK). */
function registeredIntegrations(): Telemetry[] {
  const registered = (globalThis as { AI_SDK_TELEMETRY_INTEGRATIONS?: Telemetry[] }).AI_SDK_TELEMETRY_INTEGRATIONS;
  return Array.isArray(registered) ? [...registered] : [];
}
