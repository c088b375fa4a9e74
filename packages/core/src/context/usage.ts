import type { LanguageModelUsage } from "ai";
import type { TokenUsage } from "@lathe/message";
import type { ModelPrice, ModelPriceTier } from "./model-facts.js";

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
  const write1h = hourWrites(usage);
  return { input, output, reasoning, cache: { read: cacheRead, write: cacheWrite, ...(write1h > 0 ? { write1h } : {}) } };
}

/** The cache writes with a one-hour TTL, where the provider's raw usage says (Anthropic's `cache_creation`). */
function hourWrites(usage: LanguageModelUsage | undefined): number {
  const creation = (usage?.raw as { cache_creation?: { ephemeral_1h_input_tokens?: unknown } } | undefined)?.cache_creation;
  const tokens = creation?.ephemeral_1h_input_tokens;
  return typeof tokens === "number" && tokens > 0 ? tokens : 0;
}

/**
 * What prompt caching saved on one request's tokens, in US dollars: their cost had every cache read
 * and write been billed as plain input (the same price tier: the input is as long), less their cost.
 * Negative when writes at a premium (Anthropic's 1.25× or 2×) outweigh the reads' discount; 0
 * without prices.
 */
export function savedByCache(tokens: TokenUsage, price: ModelPrice | undefined): number {
  if (!price || (tokens.cache.read === 0 && tokens.cache.write === 0)) return 0;
  const uncached: TokenUsage = { ...tokens, input: tokens.input + tokens.cache.read + tokens.cache.write, cache: { read: 0, write: 0 } };
  return costOf(uncached, price) - costOf(tokens, price);
}

/** Above this many input tokens (plain, cache reads and writes) a model's `above200k` prices apply. */
export const LONG_CONTEXT_THRESHOLD = 200_000;

/**
 * The cost in US dollars of one request's tokens at the given prices (reasoning is billed as
 * output; cache reads and writes at the input price unless priced apart). A request whose input is
 * over 200,000 tokens is billed wholly at the model's `above200k` prices, where it has them.
 */
export function costOf(tokens: TokenUsage, price: ModelPrice | undefined): number {
  if (!price) return 0;
  const input = tokens.input + tokens.cache.read + tokens.cache.write;
  const tier: ModelPriceTier = price.above200k && input > LONG_CONTEXT_THRESHOLD ? price.above200k : price;
  const hour = Math.min(tokens.cache.write1h ?? 0, tokens.cache.write);
  const perToken =
    tokens.input * tier.input +
    (tokens.output + tokens.reasoning) * tier.output +
    tokens.cache.read * (tier.cache?.read ?? tier.input) +
    (tokens.cache.write - hour) * (tier.cache?.write ?? tier.input) +
    hour * (tier.cache?.write1h ?? tier.cache?.write ?? tier.input);
  return perToken / 1_000_000;
}
