import { estimateMessagesTokens, estimatePartTokens, estimateTokens, totalTokens, type MessageWithParts, type TokenUsage } from "@lathe/message";
import type { ModelFacts } from "./model-facts.js";

/** The most tokens kept free for the answer when deciding whether the context overflows. */
export const OUTPUT_RESERVE_MAX = 20_000;

/**
 * The part of a model's context window a request may fill: the window minus room for the answer
 * (the output limit, at most {@link OUTPUT_RESERVE_MAX}), and never more than the model's input cap
 * (`maxInputTokens`, for models whose input may not fill the window). Undefined when neither the
 * window nor the input cap is known.
 */
export function usableContext(facts: ModelFacts, maxOutputTokens?: number): number | undefined {
  const { contextWindow, maxInputTokens } = facts;
  if (contextWindow === undefined) return maxInputTokens;
  const reserved = Math.min(OUTPUT_RESERVE_MAX, maxOutputTokens ?? facts.maxOutputTokens ?? OUTPUT_RESERVE_MAX);
  return Math.min(Math.max(1, contextWindow - reserved), maxInputTokens ?? Infinity);
}

/**
 * The most input tokens one request may hold: the input cap where the model has one below its
 * window, else the whole window. Undefined when neither is known.
 */
export function inputLimit(facts: ModelFacts): number | undefined {
  if (facts.contextWindow === undefined) return facts.maxInputTokens;
  return Math.min(facts.contextWindow, facts.maxInputTokens ?? Infinity);
}

/** Whether a step's tokens (input, output, reasoning, cache reads and writes) reach the usable window. */
export function isOverflow(tokens: TokenUsage, usable: number | undefined): boolean {
  return usable !== undefined && totalTokens(tokens) >= usable;
}

/**
 * Whether the next request needs room made first: the last step's tokens reached the usable window
 * (the rule the provider's own counts decide), or — what that rule cannot see — the estimate of the
 * request with everything added since (a huge tool output, a long new prompt) would not even fit
 * the input the model takes (`contextWindow`: its {@link inputLimit}).
 */
export function needsCompaction(view: MessageWithParts[], system: string, usable: number, contextWindow: number): boolean {
  const last = lastStep(view);
  if (last && last.tokens >= usable) return true;
  return nextRequestEstimate(view, system, last) >= contextWindow;
}

/** The latest step the model's current view was counted by, with what was estimated to come after it. */
function lastStep(view: MessageWithParts[]): { tokens: number; after: number } | undefined {
  // Steps before the active summary (and the summary's own step) counted a history the model no longer sees.
  const summaryIndex = view.findIndex((m) => m.info.role === "assistant" && m.info.summary === true);
  const boundary = summaryIndex >= 0 ? view[summaryIndex]!.info.id : "";
  let after = 0;
  for (let m = view.length - 1; m >= 0; m--) {
    const { info, parts } = view[m]!;
    if (info.id <= boundary) break;
    for (let p = parts.length - 1; p >= 0; p--) {
      const part = parts[p]!;
      if (part.type === "step-finish" && totalTokens(part.tokens) > 0) return { tokens: totalTokens(part.tokens), after };
      after += estimatePartTokens(part);
    }
  }
  return undefined;
}

/**
 * How many tokens the next request will hold, before it is sent: the last step's real count (its
 * prompt and answer, which the next prompt repeats) plus estimates of what came after it (tool
 * results, a new prompt). Without a step since the last summary — a new session, or just after a
 * compaction — the whole view and the system prompt are estimated.
 */
export function nextRequestEstimate(view: MessageWithParts[], system: string, last = lastStep(view)): number {
  if (last) return last.tokens + last.after;
  return estimateMessagesTokens(view) + estimateTokens(system);
}
