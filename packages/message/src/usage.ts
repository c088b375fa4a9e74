import { z } from "zod";

/** Token counts as the provider reported them; cache reads and writes are counted apart from `input`. */
export const TokenUsage = z.object({
  /** Input tokens not served from or written to the cache. */
  input: z.number().int().nonnegative(),
  /** Output tokens, reasoning excluded. */
  output: z.number().int().nonnegative(),
  /** Reasoning tokens. */
  reasoning: z.number().int().nonnegative(),
  cache: z.object({
    read: z.number().int().nonnegative(),
    write: z.number().int().nonnegative(),
    /**
     * Of `write`, the tokens written with a one-hour TTL (Anthropic bills them at 2× the input price
     * rather than 1.25×). Absent when the provider did not say, or none were.
     */
    write1h: z.number().int().nonnegative().optional(),
  }),
});
/** Token counts of a step, a message or a session. */
export type TokenUsage = z.infer<typeof TokenUsage>;

/** A zero {@link TokenUsage}. */
export function emptyTokens(): TokenUsage {
  return { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } };
}

/** The sum of two token counts. */
export function addTokens(a: TokenUsage, b: TokenUsage): TokenUsage {
  return {
    input: a.input + b.input,
    output: a.output + b.output,
    reasoning: a.reasoning + b.reasoning,
    cache: { read: a.cache.read + b.cache.read, write: a.cache.write + b.cache.write, ...hourWrites(a, b, 1) },
  };
}

/** `write1h` of `a` plus (or minus) `b`'s, when either has one. */
function hourWrites(a: TokenUsage, b: TokenUsage, sign: 1 | -1): { write1h?: number } {
  if (a.cache.write1h === undefined && b.cache.write1h === undefined) return {};
  return { write1h: (a.cache.write1h ?? 0) + sign * (b.cache.write1h ?? 0) };
}

/** `a` minus `b`, e.g. what a session used between two readings of its totals. */
export function subtractTokens(a: TokenUsage, b: TokenUsage): TokenUsage {
  return {
    input: a.input - b.input,
    output: a.output - b.output,
    reasoning: a.reasoning - b.reasoning,
    cache: { read: a.cache.read - b.cache.read, write: a.cache.write - b.cache.write, ...hourWrites(a, b, -1) },
  };
}

/** Every token a request used: input + output + reasoning + cache reads and writes. */
export function totalTokens(t: TokenUsage): number {
  return t.input + t.output + t.reasoning + t.cache.read + t.cache.write;
}
