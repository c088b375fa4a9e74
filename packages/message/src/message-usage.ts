import type { Part } from "./part.js";
import { addTokens, emptyTokens, type TokenUsage } from "./usage.js";

/** What a message's requests used, as its stored parts record it. */
export interface PartsUsage {
  tokens: TokenUsage;
  cost: number;
  /** What prompt caching saved, in US dollars (see `cacheSaved` of a step-finish part). */
  cacheSaved?: number;
  /** Steps finished (`step-finish` parts). */
  steps: number;
}

/**
 * The usage a message's parts record: every finished step's tokens and cost, plus what failed
 * attempts that were retried reported (billed all the same). This is what crash repair counts for a
 * message cut off mid-turn, whose own totals may lag its parts.
 */
export function usageOfParts(parts: readonly Part[]): PartsUsage {
  let tokens = emptyTokens();
  let cost = 0;
  let cacheSaved = 0;
  let steps = 0;
  for (const part of parts) {
    if (part.type === "step-finish") {
      tokens = addTokens(tokens, part.tokens);
      cost += part.cost;
      cacheSaved += part.cacheSaved ?? 0;
      steps++;
    } else if (part.type === "retry" && part.tokens) {
      tokens = addTokens(tokens, part.tokens);
      cost += part.cost ?? 0;
    }
  }
  return { tokens, cost, cacheSaved, steps };
}
