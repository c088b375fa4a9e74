import { NoOutputGeneratedError, type LanguageModelStreamPart, type LanguageModelUsage, type ToolSet } from "ai";

type Part = LanguageModelStreamPart<ToolSet>;
type CallEnd = Extract<Part, { type: "model-call-end" }>;

/** Usage a call reported nothing of. */
export const NULL_USAGE: LanguageModelUsage = {
  inputTokens: undefined,
  inputTokenDetails: { noCacheTokens: undefined, cacheReadTokens: undefined, cacheWriteTokens: undefined },
  outputTokens: undefined,
  outputTokenDetails: { textTokens: undefined, reasoningTokens: undefined },
  totalTokens: undefined,
  raw: undefined,
};

/**
 * Frames one model call's parts into a step the way `streamText` frames its steps, whatever the
 * provider sent: the step starts with the first part (a provider may skip `stream-start`), and it
 * ends with a finish or an error — a stream that stopped without either ends as `other` when it
 * produced output, and fails with `NoOutputGeneratedError` when it produced none.
 */
export class StepFraming {
  private started = false;
  private ended = false;
  private output = false;

  /**
   * Notes `part`, about to be passed on; returns the start to pass on before it when it is the
   * step's first part and not a start itself.
   */
  frame(part: Part): Part | undefined {
    if (part.type === "model-call-end" || part.type === "error") this.ended = true;
    else if (!this.output && isOutput(part)) this.output = true;
    if (this.started) return undefined;
    this.started = true;
    return part.type === "model-call-start" ? undefined : { type: "model-call-start", warnings: [] };
  }

  /** What the step still lacks once the stream is done. */
  close(): Part[] {
    if (this.ended) return [];
    const start: Part[] = this.started ? [] : [{ type: "model-call-start", warnings: [] }];
    if (!this.output) return [...start, { type: "error", error: new NoOutputGeneratedError({ message: "No output generated. The model stream ended without a finish chunk." }) }];
    const end: CallEnd = {
      type: "model-call-end",
      finishReason: "other",
      rawFinishReason: undefined,
      usage: NULL_USAGE,
      performance: { responseTimeMs: 0, effectiveOutputTokensPerSecond: 0, outputTokensPerSecond: undefined, inputTokensPerSecond: undefined, effectiveTotalTokensPerSecond: 0, timeToFirstOutputMs: undefined },
    };
    return [...start, end];
  }
}

/** Whether a part carries output of the model (what `streamText` counts as output). */
function isOutput(part: Part): boolean {
  switch (part.type) {
    case "text-delta":
    case "reasoning-delta":
      return part.text.length > 0;
    case "tool-input-delta":
      return part.delta.length > 0;
    case "file":
    case "reasoning-file":
    case "tool-call":
      return true;
    default:
      return false;
  }
}
