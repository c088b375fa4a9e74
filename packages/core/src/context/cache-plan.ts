import type { LanguageModel, SystemModelMessage } from "ai";
import type { CacheScheme, ResolvedCache } from "./cache-options.js";
import type { BreakpointPlan } from "./cache-breakpoints.js";
import { providerCaching } from "./cache-scheme.js";

/** The fewest tokens Anthropic caches for most models; a model's `cacheMinTokens` says otherwise. */
export const DEFAULT_CACHE_MIN_TOKENS = 1_024;

/** What caching does to the requests of one model in one session (or one compaction). */
export interface CachePlan {
  /** `off` when the host turned caching off: nothing is added and the system prompt is one string. */
  scheme: CacheScheme | "off";
  /** Where breakpoints go (the `breakpoints` scheme). */
  breakpoints?: BreakpointPlan | undefined;
  /** The `promptCacheKey` sent (the `key` scheme): one per session, so a subagent has its own. */
  key?: string | undefined;
}

/** The cache plan of `model` under the merged settings; `key` names the session (or the compaction) the requests belong to. */
export function cachePlan(model: LanguageModel, cache: ResolvedCache, key: string, minTokens: number | undefined): CachePlan {
  if (!cache.enabled) return { scheme: "off" };
  const { scheme, carrier } = providerCaching(model, cache.ttl, cache.scheme);
  if (scheme === "breakpoints" && carrier) return { scheme, breakpoints: { carrier, minTokens: minTokens ?? DEFAULT_CACHE_MIN_TOKENS } };
  if (scheme === "key") return { scheme, key };
  return { scheme };
}

/**
 * The system prompt as the request sends it: with breakpoints, two system messages — the stable part
 * (base prompt, agent prompt, instruction files, host instructions, skills), whose end is a
 * breakpoint, then the volatile part (environment with date and listing, the prompt's own
 * instructions) — so a new day or a new file changes only what comes after the breakpoint. Otherwise
 * one string, stable part first, so a provider caching prefixes on its own (OpenAI, Google) still
 * finds the longest common one.
 */
export function systemForRequest(plan: CachePlan, stable: readonly string[], volatile: readonly string[]): string | SystemModelMessage[] {
  if (plan.scheme !== "breakpoints" || stable.length === 0 || volatile.length === 0) return [...stable, ...volatile].join("\n\n");
  return [
    { role: "system", content: stable.join("\n\n") },
    { role: "system", content: volatile.join("\n\n") },
  ];
}

/** The system prompt as one string (for estimates and telemetry), however it is sent. */
export function systemText(system: string | readonly SystemModelMessage[]): string {
  return typeof system === "string" ? system : system.map((m) => m.content).join("\n\n");
}

/**
 * `providerOptions` with the plan's cache key added (`openai.promptCacheKey`), unless the host set
 * one: a host's own options win. Returns a new object; the given one is left as it was.
 */
export function withCacheKey(providerOptions: Record<string, Record<string, unknown>>, plan: CachePlan): Record<string, Record<string, unknown>> {
  if (plan.scheme !== "key" || plan.key === undefined) return providerOptions;
  const openai = providerOptions["openai"] ?? {};
  if (openai["promptCacheKey"] !== undefined) return providerOptions;
  return { ...providerOptions, openai: { ...openai, promptCacheKey: plan.key } };
}
