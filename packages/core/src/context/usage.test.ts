import { describe, it, expect } from "vitest";
import type { LanguageModelUsage } from "ai";
import type { TokenUsage } from "@lathe/message";
import type { ModelPrice } from "./model-facts.js";
import { LONG_CONTEXT_THRESHOLD, costOf, tokensFromUsage } from "./usage.js";

const tokens = (input: number, output = 0, reasoning = 0, read = 0, write = 0): TokenUsage => ({ input, output, reasoning, cache: { read, write } });

/** Tiered prices whose every figure differs, so a term billed at the wrong price shows. */
const tiered: ModelPrice = {
  input: 3,
  output: 15,
  cache: { read: 0.3, write: 3.75 },
  above200k: { input: 6, output: 22.5, cache: { read: 0.6, write: 7.5 } },
};

describe("costOf", () => {
  it("is zero without a price", () => {
    expect(costOf(tokens(1_000_000, 1_000_000), undefined)).toBe(0);
  });

  it("bills input, output and cache at their prices per million tokens", () => {
    expect(costOf(tokens(100_000), tiered)).toBeCloseTo(0.3, 10);
    expect(costOf(tokens(0, 1_000_000), tiered)).toBeCloseTo(15, 10);
    expect(costOf(tokens(0, 0, 0, 100_000), tiered)).toBeCloseTo(0.03, 10);
    expect(costOf(tokens(0, 0, 0, 0, 100_000), tiered)).toBeCloseTo(0.375, 10);
  });

  it("bills one-hour cache writes at their own price (the write price when none is given), and reads them from the raw usage", () => {
    const hourly: ModelPrice = { input: 3, output: 15, cache: { read: 0.3, write: 3.75, write1h: 6 } };
    const mixed: TokenUsage = { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 150_000, write1h: 50_000 } };
    expect(costOf(mixed, hourly)).toBeCloseTo((100_000 * 3.75 + 50_000 * 6) / 1e6, 10);
    expect(costOf(mixed, tiered)).toBeCloseTo((150_000 * 3.75) / 1e6, 10);
    const usage = {
      inputTokens: 1_500,
      inputTokenDetails: { noCacheTokens: 100, cacheReadTokens: 400, cacheWriteTokens: 1_000 },
      outputTokens: 10,
      raw: { cache_creation: { ephemeral_5m_input_tokens: 250, ephemeral_1h_input_tokens: 750 } },
    } as unknown as LanguageModelUsage;
    expect(tokensFromUsage(usage).cache).toEqual({ read: 400, write: 1_000, write1h: 750 });
    expect(tokensFromUsage({ ...usage, raw: {} } as LanguageModelUsage).cache).toEqual({ read: 400, write: 1_000 });
  });

  it("bills reasoning as output", () => {
    expect(costOf(tokens(0, 0, 1_000), tiered)).toBeCloseTo(costOf(tokens(0, 1_000), tiered), 12);
    expect(costOf(tokens(0, 400, 600), tiered)).toBeCloseTo((1_000 * 15) / 1_000_000, 12);
  });

  it("bills cache reads and writes at the input price when they are not priced apart", () => {
    const flat: ModelPrice = { input: 2, output: 8 };
    expect(costOf(tokens(100, 0, 0, 200, 300), flat)).toBeCloseTo((600 * 2) / 1_000_000, 12);
    const readOnly: ModelPrice = { input: 2, output: 8, cache: { read: 0.5 } };
    expect(costOf(tokens(0, 0, 0, 1_000, 1_000), readOnly)).toBeCloseTo((1_000 * 0.5 + 1_000 * 2) / 1_000_000, 12);
  });

  it("keeps the base prices at exactly 200,000 input tokens", () => {
    expect(LONG_CONTEXT_THRESHOLD).toBe(200_000);
    const atThreshold = tokens(100_000, 1_000, 0, 60_000, 40_000);
    expect(costOf(atThreshold, tiered)).toBeCloseTo((100_000 * 3 + 1_000 * 15 + 60_000 * 0.3 + 40_000 * 3.75) / 1_000_000, 10);
  });

  it("bills the whole request at the tier's prices one token over, counting cache reads and writes as input", () => {
    const over = tokens(100_001, 1_000, 500, 60_000, 40_000);
    expect(costOf(over, tiered)).toBeCloseTo((100_001 * 6 + 1_500 * 22.5 + 60_000 * 0.6 + 40_000 * 7.5) / 1_000_000, 10);
  });

  it("does not count output toward the threshold", () => {
    expect(costOf(tokens(200_000, 50_000), tiered)).toBeCloseTo((200_000 * 3 + 50_000 * 15) / 1_000_000, 10);
  });

  it("bills the tier's cache at the tier's input price when the tier prices no cache", () => {
    const gemini: ModelPrice = { input: 1.25, output: 10, cache: { read: 0.125 }, above200k: { input: 2.5, output: 15 } };
    expect(costOf(tokens(150_000, 0, 0, 60_000, 10_000), gemini)).toBeCloseTo((150_000 * 2.5 + 60_000 * 2.5 + 10_000 * 2.5) / 1_000_000, 10);
  });

  it("ignores the size of a request when the model has no tier", () => {
    const flat: ModelPrice = { input: 2, output: 8 };
    expect(costOf(tokens(1_000_000), flat)).toBeCloseTo(2, 10);
  });
});

describe("tokensFromUsage", () => {
  const usage = (over: Partial<LanguageModelUsage>): LanguageModelUsage =>
    ({
      inputTokens: undefined,
      inputTokenDetails: { noCacheTokens: undefined, cacheReadTokens: undefined, cacheWriteTokens: undefined },
      outputTokens: undefined,
      outputTokenDetails: { textTokens: undefined, reasoningTokens: undefined },
      totalTokens: undefined,
      ...over,
    }) as LanguageModelUsage;

  it("is all zeros without usage", () => {
    expect(tokensFromUsage(undefined)).toEqual(tokens(0));
  });

  it("takes cache reads and writes apart from plain input, and reasoning apart from text", () => {
    const got = tokensFromUsage(
      usage({
        inputTokens: 1_000,
        inputTokenDetails: { noCacheTokens: undefined, cacheReadTokens: 600, cacheWriteTokens: 100 },
        outputTokens: 50,
        outputTokenDetails: { textTokens: undefined, reasoningTokens: 20 },
      }),
    );
    expect(got).toEqual(tokens(300, 30, 20, 600, 100));
  });

  it("prefers the provider's own split when it reports one", () => {
    const got = tokensFromUsage(
      usage({
        inputTokens: 1_000,
        inputTokenDetails: { noCacheTokens: 250, cacheReadTokens: 600, cacheWriteTokens: 100 },
        outputTokens: 50,
        outputTokenDetails: { textTokens: 45, reasoningTokens: 5 },
      }),
    );
    expect(got).toEqual(tokens(250, 45, 5, 600, 100));
  });

  it("never goes negative when details exceed the totals", () => {
    const got = tokensFromUsage(usage({ inputTokens: 10, inputTokenDetails: { noCacheTokens: undefined, cacheReadTokens: 50, cacheWriteTokens: 0 } }));
    expect(got.input).toBe(0);
  });
});
