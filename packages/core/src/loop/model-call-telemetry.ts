import { randomUUID } from "node:crypto";
import type { LanguageModel, LanguageModelStreamPart, LanguageModelUsage, ModelMessage, Telemetry, TelemetryOptions, ToolSet } from "ai";
import type { ChatParams } from "../agents/hooks.js";

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

  constructor(options: TelemetryOptions) {
    const given = options.integrations;
    this.integrations = given === undefined ? [] : Array.isArray(given) ? given : [given as Telemetry];
    this.base = { callId: this.callId, recordInputs: options.recordInputs !== false, recordOutputs: options.recordOutputs !== false, functionId: options.functionId };
  }

  /** Whether the integrations record the prompt (then the call must be given its whole history). */
  get recordsInputs(): boolean {
    return this.base.recordInputs;
  }

  /** The operation and its step start, with what the request holds. */
  start(model: LanguageModel, instructions: string, messages: ModelMessage[], params: ChatParams): void {
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
      onLanguageModelCallStart: (event) => this.each((t) => t.onLanguageModelCallStart?.(event as never)),
      onLanguageModelCallEnd: (event) => this.each((t) => t.onLanguageModelCallEnd?.(event)),
    };
  }

  /** Keeps what the step's end reports: the finish, and (when outputs are recorded) the text and tool calls. */
  observe(part: LanguageModelStreamPart<ToolSet> | { type: "abort" }): void {
    if (part.type === "model-call-end") this.finish = part;
    else if (!this.base.recordOutputs) return;
    else if (part.type === "text-delta") this.text += part.text;
    else if (part.type === "tool-call") this.toolCalls.push(part);
  }

  /** The step and the operation end: with the call's finish, or with `error`, or as aborted. */
  end(outcome: { error: unknown } | { aborted: true } | undefined): void {
    if (outcome && "error" in outcome) {
      const event = { ...this.base, error: outcome.error };
      this.each((t) => t.onStepError?.(event as never));
      this.each((t) => t.onError?.(event));
      return;
    }
    if (outcome) {
      this.each((t) => t.onAbort?.({ ...this.base, steps: [] } as never));
      return;
    }
    const usage: LanguageModelUsage | undefined = this.finish?.usage;
    const finishReason = this.finish?.finishReason ?? "other";
    const providerMetadata = this.finish?.providerMetadata;
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
