// What Lathe knows of a model: context window, output limit and prices. The built-in table's figures
// are as published by each provider on BUILTIN_MODELS_DATE; hosts override or extend them via `models`.
import { z } from "zod";

/** Prices of one tier, in US dollars per million tokens. */
export const ModelPriceTier = z.strictObject({
  input: z.number().nonnegative(),
  output: z.number().nonnegative(),
  /**
   * Cache reads and writes; each defaults to the input price. `write1h` prices writes with a
   * one-hour TTL (Anthropic: 2× the input price); it defaults to `write`.
   */
  cache: z
    .strictObject({ read: z.number().nonnegative().optional(), write: z.number().nonnegative().optional(), write1h: z.number().nonnegative().optional() })
    .optional(),
});
/** Prices of one tier, in US dollars per million tokens. */
export type ModelPriceTier = z.infer<typeof ModelPriceTier>;

/** Prices of a model in US dollars per million tokens. */
export const ModelPrice = ModelPriceTier.extend({
  /**
   * Prices of a request whose input (plain, cache reads and cache writes) is over 200,000 tokens,
   * for models billed that way (Anthropic's long-context Sonnet, Gemini 2.5 Pro).
   */
  above200k: ModelPriceTier.optional(),
});
/** Prices of a model in US dollars per million tokens. */
export type ModelPrice = z.infer<typeof ModelPrice>;

/** What Lathe needs to know of a model. */
export const ModelFacts = z.object({
  /** Tokens one request may hold, prompt and answer together. */
  contextWindow: z.number().int().positive().optional(),
  /**
   * The most tokens a request's input (prompt, history, tool results) may hold, for models whose
   * provider caps the input below the window (OpenAI's GPT-5 family: 272,000 of a 400,000 window).
   * Compaction keeps requests under it. Unset: the window less room for the answer.
   */
  maxInputTokens: z.number().int().positive().optional(),
  /** The most tokens the model writes in one answer. */
  maxOutputTokens: z.number().int().positive().optional(),
  price: ModelPrice.optional(),
  /**
   * The shortest prompt prefix the provider caches, in tokens (Anthropic: 1,024 for most models,
   * 2,048 or 4,096 for some). Lathe places no cache breakpoint before a prefix this long. Unset:
   * 1,024 (a breakpoint below a model's real minimum is ignored by the provider, at no cost).
   */
  cacheMinTokens: z.number().int().positive().optional(),
});
/** What Lathe needs to know of a model. */
export type ModelFacts = z.infer<typeof ModelFacts>;

/** When the built-in table was last checked against the providers' published model and pricing pages (ISO date). */
export const BUILTIN_MODELS_DATE = "2026-11-25";

// Figures below are as published by each provider (Anthropic, OpenAI, Google) on BUILTIN_MODELS_DATE.
// They change: hosts correct or add any through `models` (and the older `prices`) of createAgent.
// A model is left out rather than guessed when a figure was not certain, and a model id never
// borrows another's facts: a newer model is unknown until it is listed here or by the host.

/** Anthropic bills cache reads at 10%, 5-minute cache writes at 125% and 1-hour ones at 200% of the input price. */
function anthropic(contextWindow: number, maxOutputTokens: number, input: number, output: number, cacheMinTokens?: number): ModelFacts {
  return {
    contextWindow,
    maxOutputTokens,
    price: { input, output, cache: { read: input / 10, write: input * 1.25, write1h: input * 2 } },
    ...(cacheMinTokens === undefined ? {} : { cacheMinTokens }),
  };
}

/**
 * Sonnet 4 and 4.5 take up to 1M tokens with Anthropic's long-context option (Sonnet 4.6 and Opus 4.6
 * have the 1M window at one price); a request over 200k
 * input tokens is then billed at twice the input price and 1.5 times the output price.
 */
function anthropicLongContext(contextWindow: number, maxOutputTokens: number, input: number, output: number): ModelFacts {
  const base = anthropic(contextWindow, maxOutputTokens, input, output);
  const long = { input: input * 2, output: output * 1.5, cache: { read: (input * 2) / 10, write: input * 2 * 1.25, write1h: input * 2 * 2 } };
  return { ...base, price: { ...base.price!, above200k: long } };
}

/** OpenAI bills cached input at its own price and has no cache-write charge (writes cost plain input). */
function openai(contextWindow: number, maxOutputTokens: number, input: number, output: number, cachedInput?: number): ModelFacts {
  return { contextWindow, maxOutputTokens, price: { input, output, ...(cachedInput === undefined ? {} : { cache: { read: cachedInput } }) } };
}

/** OpenAI's GPT-5 family: a 400,000-token window of which the input may fill 272,000. */
function gpt5(input: number, output: number, cachedInput?: number): ModelFacts {
  return { ...openai(400_000, 128_000, input, output, cachedInput), maxInputTokens: 272_000 };
}

/**
 * Facts of widely used models, keyed by model id without a provider prefix, as each provider
 * published them on {@link BUILTIN_MODELS_DATE}. An id finds an entry only exactly, or as a dated
 * snapshot of it (`claude-sonnet-4-5-20250929` → `claude-sonnet-4-5`, see {@link resolveModelFacts}).
 * Frozen; hosts correct or add entries through `models` rather than by editing it.
 */
export const BUILTIN_MODELS: Readonly<Record<string, Readonly<ModelFacts>>> = deepFreeze({
  // Anthropic.
  "claude-opus-4-6": anthropic(1_000_000, 128_000, 5, 25),
  "claude-sonnet-4-6": anthropic(1_000_000, 64_000, 3, 15),
  "claude-opus-4-5": anthropic(200_000, 64_000, 5, 25, 4_096),
  "claude-opus-4-1": anthropic(200_000, 32_000, 15, 75),
  "claude-opus-4": anthropic(200_000, 32_000, 15, 75),
  "claude-sonnet-4-5": anthropicLongContext(200_000, 64_000, 3, 15),
  "claude-sonnet-4": anthropicLongContext(200_000, 64_000, 3, 15),
  "claude-3-7-sonnet": anthropic(200_000, 64_000, 3, 15),
  "claude-haiku-4-5": anthropic(200_000, 64_000, 1, 5, 4_096),
  "claude-3-5-haiku": anthropic(200_000, 8_192, 0.8, 4, 2_048),
  // OpenAI.
  "gpt-5.2": gpt5(1.75, 14, 0.175),
  "gpt-5.1": gpt5(1.25, 10, 0.125),
  "gpt-5": gpt5(1.25, 10, 0.125),
  "gpt-5-chat-latest": openai(128_000, 16_384, 1.25, 10, 0.125),
  "gpt-5-pro": openai(400_000, 272_000, 15, 120),
  "gpt-5-mini": gpt5(0.25, 2, 0.025),
  "gpt-5-nano": gpt5(0.05, 0.4, 0.005),
  "gpt-4.1": openai(1_047_576, 32_768, 2, 8, 0.5),
  "gpt-4.1-mini": openai(1_047_576, 32_768, 0.4, 1.6, 0.1),
  "gpt-4.1-nano": openai(1_047_576, 32_768, 0.1, 0.4, 0.025),
  "gpt-4o": openai(128_000, 16_384, 2.5, 10, 1.25),
  "gpt-4o-2024-05-13": openai(128_000, 4_096, 5, 15),
  "gpt-4o-mini": openai(128_000, 16_384, 0.15, 0.6, 0.075),
  o3: openai(200_000, 100_000, 2, 8, 0.5),
  "o3-pro": openai(200_000, 100_000, 20, 80),
  "o3-mini": openai(200_000, 100_000, 1.1, 4.4, 0.55),
  "o4-mini": openai(200_000, 100_000, 1.1, 4.4, 0.275),
  // Google (Gemini API). The context window is the input limit; cache reads are implicit-cache hits.
  "gemini-3.1-pro-preview": {
    contextWindow: 1_048_576,
    maxOutputTokens: 65_536,
    price: { input: 2, output: 12, cache: { read: 0.2 }, above200k: { input: 4, output: 18, cache: { read: 0.4 } } },
  },
  "gemini-3-pro-preview": {
    contextWindow: 1_048_576,
    maxOutputTokens: 65_536,
    price: { input: 2, output: 12, cache: { read: 0.2 }, above200k: { input: 4, output: 18, cache: { read: 0.4 } } },
  },
  "gemini-3-flash-preview": { contextWindow: 1_048_576, maxOutputTokens: 65_536, price: { input: 0.5, output: 3, cache: { read: 0.05 } } },
  "gemini-2.5-pro": {
    contextWindow: 1_048_576,
    maxOutputTokens: 65_536,
    price: { input: 1.25, output: 10, cache: { read: 0.125 }, above200k: { input: 2.5, output: 15, cache: { read: 0.25 } } },
  },
  "gemini-2.5-flash": { contextWindow: 1_048_576, maxOutputTokens: 65_536, price: { input: 0.3, output: 2.5, cache: { read: 0.03 } } },
  "gemini-2.5-flash-lite": { contextWindow: 1_048_576, maxOutputTokens: 65_536, price: { input: 0.1, output: 0.4 } },
});

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object") {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

/**
 * Published aliases that are neither the entry's id nor a dated snapshot of it (Anthropic's `-0`
 * and `-latest` names of models it lists under a date).
 */
const ALIASES: Readonly<Record<string, string>> = {
  "claude-opus-4-0": "claude-opus-4",
  "claude-sonnet-4-0": "claude-sonnet-4",
  "claude-3-7-sonnet-latest": "claude-3-7-sonnet",
  "claude-3-5-haiku-latest": "claude-3-5-haiku",
};

/** A dated snapshot's date: `-20250929`, `-2024-08-06`, or Vertex's `@20250929`. */
const DATE_SUFFIX = /(?:-\d{8}|-\d{4}-\d{2}-\d{2}|@\d{8})$/;

/** The built-in entry of one id: exact (or a published alias), else the entry the id is a dated snapshot of. */
function builtinEntry(id: string): ModelFacts | undefined {
  const named = (key: string) => own(BUILTIN_MODELS, own(ALIASES, key) ?? key);
  const exact = named(id);
  if (exact || !DATE_SUFFIX.test(id)) return exact;
  return named(id.replace(DATE_SUFFIX, ""));
}

/**
 * The built-in facts of a model id as hosts and gateways spell it: as given, else without a
 * gateway's path (`anthropic/claude-sonnet-4-5`) or Bedrock's region, vendor and version
 * (`us.anthropic.claude-sonnet-4-5-20250929-v1:0`). Nothing else is borrowed: `claude-opus-4-6` is
 * not `claude-opus-4`, `gpt-5.2` is not `gpt-5`, and `claude-sonnet-4.5` (a gateway's spelling) is
 * not `claude-sonnet-4-5`; give such ids their facts through `models`.
 */
function builtinFacts(modelID: string): ModelFacts | undefined {
  const id = modelID.trim().toLowerCase();
  const bare = id.slice(id.lastIndexOf("/") + 1);
  const bedrock = /^(?:[a-z]+\.)?(?:anthropic|openai|google)\.(.+?)(?:-v\d+(?::\d+)?)?$/.exec(bare)?.[1];
  for (const candidate of new Set([id, bare, ...(bedrock ? [bedrock] : [])])) {
    const found = builtinEntry(candidate);
    if (found) return found;
  }
  return undefined;
}

/** Copies the fields of `entry` that are set over `facts` (an explicit undefined does not erase). */
function overlay(facts: ModelFacts, entry: ModelFacts | undefined): ModelFacts {
  if (!entry) return facts;
  const out = { ...facts };
  if (entry.contextWindow !== undefined) out.contextWindow = entry.contextWindow;
  if (entry.maxInputTokens !== undefined) out.maxInputTokens = entry.maxInputTokens;
  if (entry.maxOutputTokens !== undefined) out.maxOutputTokens = entry.maxOutputTokens;
  if (entry.price !== undefined) out.price = entry.price;
  if (entry.cacheMinTokens !== undefined) out.cacheMinTokens = entry.cacheMinTokens;
  return out;
}

/**
 * The facts Lathe uses for a model: the built-in entry (the exact id or a published alias, else the
 * entry the id is a dated snapshot of — `claude-sonnet-4-5-20250929`, `gpt-4o-2024-08-06`,
 * `claude-sonnet-4-5@20250929` — and never a prefix: `claude-opus-4-6` gets nothing from
 * `claude-opus-4`, and an unknown newer id gets no facts at all), overlaid field
 * by field by the host's entry (`host["provider/model"]` over `host["model"]`; host keys match exactly
 * only), and `prices[...]` (same keys; the older option) replacing `price` when given. A price is one
 * field: a host price replaces the built-in one whole, tiers and cache included.
 */
export function resolveModelFacts(
  ref: { providerID: string; modelID: string },
  host: Record<string, ModelFacts> = {},
  prices: Record<string, ModelPrice> = {},
): ModelFacts {
  const qualified = `${ref.providerID}/${ref.modelID}`;
  let facts: ModelFacts = { ...builtinFacts(ref.modelID) };
  facts = overlay(facts, own(host, ref.modelID));
  facts = overlay(facts, own(host, qualified));
  const price = own(prices, qualified) ?? own(prices, ref.modelID);
  if (price) facts.price = price;
  return facts;
}

/** `record[key]` when the record itself holds it (so "constructor" or "__proto__" never reach Object's). */
function own<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}
