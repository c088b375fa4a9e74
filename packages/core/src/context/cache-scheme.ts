import type { LanguageModel } from "ai";
import type { CacheScheme } from "./cache-options.js";

/**
 * Where a provider package reads a cache breakpoint from: the `providerOptions` a marked message
 * (or tool definition) carries, and whether they go on the message or on its last part.
 */
export interface BreakpointCarrier {
  /** Set on the marked message (system messages always take them here). */
  message?: Record<string, Record<string, unknown>>;
  /** Set on the marked message's last part (a package that reads parts only: openai-compatible). */
  part?: Record<string, Record<string, unknown>>;
  /** Whether the package takes a breakpoint on a tool definition (Bedrock's Converse API does not). */
  tools: boolean;
}

/** The cache scheme of a model, and for breakpoints where they go. */
export interface ProviderCaching {
  scheme: CacheScheme;
  /** For `breakpoints` only. */
  carrier?: BreakpointCarrier;
}

/**
 * How a model takes cache hints, from its `provider` as the AI SDK's packages name it — never from
 * guesses on the model id:
 * - `anthropic.messages`, `vertex.anthropic.messages`, `bedrock.anthropic.messages` (any name with an
 *   `anthropic` segment): breakpoints as `providerOptions.anthropic.cacheControl`;
 * - `amazon-bedrock` (the Converse API): breakpoints as `providerOptions.bedrock.cachePoint`, for
 *   the model families Bedrock caches (Claude, Nova) — others refuse a cache point;
 * - `openrouter.*`: breakpoints as `providerOptions.openrouter.cacheControl`;
 * - `openai.*` (`openai.responses`, `openai.chat`): a `promptCacheKey` per session;
 * - `google.*`, `vertex.*` and every provider Lathe does not know: a stable prefix only.
 *
 * `scheme` (the host's `cache.scheme`) overrides: `breakpoints` for an unknown provider (an
 * openai-compatible proxy in front of Claude) sets Anthropic's, OpenRouter's and
 * openai-compatible's spelling at once (each package reads only its own).
 */
export function providerCaching(model: LanguageModel, ttl: "5m" | "1h", scheme?: CacheScheme): ProviderCaching {
  // A model named by a string goes through the AI Gateway, whose provider is known only per request.
  const provider = typeof model === "string" ? "gateway" : model.provider.toLowerCase();
  const modelId = typeof model === "string" ? model : model.modelId.toLowerCase();
  const cacheControl = { type: "ephemeral", ...(ttl === "1h" ? { ttl } : {}) };
  const known = knownScheme(provider, modelId);
  const chosen = scheme ?? known;
  if (chosen !== "breakpoints") return { scheme: chosen };
  if (known === "breakpoints") {
    if (/(^|\.)anthropic(\.|$)/.test(provider)) return { scheme: chosen, carrier: { message: { anthropic: { cacheControl } }, tools: true } };
    if (provider.startsWith("amazon-bedrock")) return { scheme: chosen, carrier: { message: { bedrock: { cachePoint: { type: "default" } } }, tools: false } };
    if (provider.startsWith("openrouter")) return { scheme: chosen, carrier: { message: { openrouter: { cacheControl } }, tools: false } };
  }
  return {
    scheme: chosen,
    carrier: {
      message: { anthropic: { cacheControl }, openrouter: { cacheControl }, openaiCompatible: { cache_control: cacheControl } },
      part: { openaiCompatible: { cache_control: cacheControl } },
      tools: true,
    },
  };
}

function knownScheme(provider: string, modelId: string): CacheScheme {
  if (/(^|\.)anthropic(\.|$)/.test(provider) || provider.startsWith("openrouter")) return "breakpoints";
  // Bedrock's Converse API caches only some model families, and refuses a cache point on the rest.
  if (provider.startsWith("amazon-bedrock")) return /(^|\.)(anthropic|amazon\.nova)/.test(modelId) ? "breakpoints" : "prefix";
  if (/^openai\./.test(provider)) return "key";
  return "prefix";
}
