import type { LanguageModelUsage } from "ai";
import type { TokenUsage } from "@lathe/message";
import type { ModelPrice } from "./options.js";

/**
 * Converts the AI SDK's usage into Lathe's token counts. Cache reads and writes are taken apart from
 * plain input, and reasoning apart from text output, as the provider reported them.
 */
export function tokensFromUsage(usage: LanguageModelUsage | undefined): TokenUsage {
  const cacheRead = usage?.inputTokenDetails?.cacheReadTokens ?? 0;
  const cacheWrite = usage?.inputTokenDetails?.cacheWriteTokens ?? 0;
  const input = usage?.inputTokenDetails?.noCacheTokens ?? Math.max(0, (usage?.inputTokens ?? 0) - cacheRead - cacheWrite);
  const reasoning = usage?.outputTokenDetails?.reasoningTokens ?? 0;
  const output = usage?.outputTokenDetails?.textTokens ?? Math.max(0, (usage?.outputTokens ?? 0) - reasoning);
  return { input, output, reasoning, cache: { read: cacheRead, write: cacheWrite } };
}

/** The cost in US dollars of the given tokens at the given prices (reasoning is billed as output). */
export function costOf(tokens: TokenUsage, price: ModelPrice | undefined): number {
  if (!price) return 0;
  const perToken =
    tokens.input * price.input +
    (tokens.output + tokens.reasoning) * price.output +
    tokens.cache.read * (price.cache?.read ?? price.input) +
    tokens.cache.write * (price.cache?.write ?? price.input);
  return perToken / 1_000_000;
}
