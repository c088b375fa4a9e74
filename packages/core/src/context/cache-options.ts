import { z } from "zod";

/**
 * How a provider takes cache hints:
 * - `breakpoints`: Anthropic-style breakpoints (Anthropic's API directly, on Vertex or Bedrock, and
 *   gateways that pass Anthropic's `cache_control` on: OpenRouter, openai-compatible proxies);
 * - `key`: OpenAI's `promptCacheKey`, one per session;
 * - `prefix`: nothing to send; the provider caches a stable prompt prefix on its own (Google's
 *   implicit caching), and every unknown provider gets just that.
 */
export const CacheScheme = z.enum(["breakpoints", "key", "prefix"]);
/** How a provider takes cache hints; see {@link CacheScheme}. */
export type CacheScheme = z.infer<typeof CacheScheme>;

/** How long a written prefix stays cached on Anthropic: 5 minutes (written at 1.25× the input price) or 1 hour (at 2×). */
export const CacheTtl = z.enum(["5m", "1h"]);
/** How long a written prefix stays cached; see {@link CacheTtl}. */
export type CacheTtl = z.infer<typeof CacheTtl>;

/** Prompt caching settings, field by field; see {@link CacheSetting}. */
export const CacheOptions = z.strictObject({
  /** False sends no cache hints at all (no breakpoints, no cache key, one system string). Default true. */
  enabled: z.boolean().optional(),
  /**
   * How long each Anthropic breakpoint's prefix stays cached. `1h` costs more to write (2× instead of
   * 1.25× the input price) and pays off when a session sits idle for more than 5 minutes between
   * prompts (a user reading, a queue). Default `5m`.
   */
  ttl: CacheTtl.optional(),
  /**
   * How the model's provider takes cache hints, when Lathe cannot tell from the model's `provider`
   * (an openai-compatible gateway in front of Claude takes `breakpoints`). Default: from the provider.
   */
  scheme: CacheScheme.optional(),
});
/** Prompt caching settings, field by field. */
export type CacheOptions = z.infer<typeof CacheOptions>;

/**
 * Prompt caching: `true` (the default: on, per provider), `false` (off), `"1h"` (on, with Anthropic's
 * one-hour TTL), or {@link CacheOptions}. Given to `createAgent`, an agent, or one prompt; the most
 * specific wins field by field. A host's own `providerOptions` win over what caching would set.
 */
export const CacheSetting = z.union([z.boolean(), z.literal("1h"), CacheOptions]);
/** Prompt caching on, off, with a 1-hour TTL, or field by field; see {@link CacheSetting}. */
export type CacheSetting = z.infer<typeof CacheSetting>;

/** The settings `setting` stands for, as fields. */
function asOptions(setting: CacheSetting | undefined): CacheOptions {
  if (setting === undefined) return {};
  if (typeof setting === "boolean") return { enabled: setting };
  if (setting === "1h") return { enabled: true, ttl: "1h" };
  return setting;
}

/** What caching does for one request, once the settings are merged. */
export interface ResolvedCache {
  enabled: boolean;
  ttl: CacheTtl;
  /** The scheme the host named, if any (else it comes from the model's provider). */
  scheme?: CacheScheme | undefined;
}

/**
 * Merges cache settings from the least to the most specific (createAgent's, the agent's, the
 * prompt's): each set field of a later one wins. Caching is on unless one says otherwise.
 */
export function resolveCache(...settings: Array<CacheSetting | undefined>): ResolvedCache {
  const merged: CacheOptions = {};
  for (const setting of settings) {
    for (const [key, value] of Object.entries(asOptions(setting))) if (value !== undefined) (merged as Record<string, unknown>)[key] = value;
  }
  return { enabled: merged.enabled ?? true, ttl: merged.ttl ?? "5m", ...(merged.scheme ? { scheme: merged.scheme } : {}) };
}
