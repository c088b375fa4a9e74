import type { LanguageModel, ModelMessage, OutputInterface, SystemModelMessage, TelemetryOptions, ToolSet } from "ai";
import type { CachePlan } from "../context/cache-plan.js";
import type { Tool } from "@lathe/tools";
import type { ChatParams } from "../agents/hooks.js";
import type { PromptPrefix } from "./prompt-prefix.js";

/** One model request of a step, as the loop (or a compaction) built it. */
export interface StepRequest {
  model: LanguageModel;
  /** The system prompt: one string, or its stable and volatile parts as two system messages (see `systemForRequest`). */
  instructions: string | SystemModelMessage[];
  messages: ModelMessage[];
  /** The tools offered; none when undefined. */
  tools: ToolSet | undefined;
  /** The tools calls are parsed against (an empty map turns every call into an unknown tool). */
  offered: ReadonlyMap<string, Tool>;
  params: ChatParams;
  /** The workspace snapshot the step began at, recorded on its step-start part. */
  snapshot?: string | undefined;
  signal: AbortSignal;
  /** The structured output asked for (the provider's JSON-schema response format); see `structured-output.ts`. */
  output?: OutputInterface<unknown, unknown, never> | undefined;
  /**
   * The turn's last prompt, so that this request converts only the messages added since; every
   * message is converted when undefined.
   */
  prefix?: PromptPrefix | undefined;
  /** What caching adds to the request: breakpoints placed on its final prompt (see `cachingModel`); none when undefined. */
  cache?: CachePlan | undefined;
  /** The AI SDK's telemetry for this request (its spans under the step's); none when off. */
  telemetry?: TelemetryOptions | undefined;
}

