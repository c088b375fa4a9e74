import { describe, expect, it } from "vitest";
import fc from "fast-check";
import type { LanguageModelV4CallOptions, LanguageModelV4Message } from "@ai-sdk/provider";
import { mockModel } from "@lathe/mock";
import { resolveCache, CacheSetting } from "./cache-options.js";
import { providerCaching } from "./cache-scheme.js";
import { cachePlan, systemForRequest, withCacheKey } from "./cache-plan.js";
import { MAX_BREAKPOINTS, placeBreakpoints } from "./cache-breakpoints.js";
import { savedByCache } from "./usage.js";

const model = (provider: string, modelId = "m") => mockModel([], { provider, modelId });

describe("which cache scheme a model gets, from its provider", () => {
  it.each([
    ["anthropic.messages", "claude-sonnet-4-5", "breakpoints", "anthropic"],
    ["vertex.anthropic.messages", "claude-sonnet-4-5@20250929", "breakpoints", "anthropic"],
    ["bedrock.anthropic.messages", "us.anthropic.claude-sonnet-4-5-20250929-v1:0", "breakpoints", "anthropic"],
    ["amazon-bedrock", "us.anthropic.claude-sonnet-4-5-20250929-v1:0", "breakpoints", "bedrock"],
    ["amazon-bedrock", "amazon.nova-pro-v1:0", "breakpoints", "bedrock"],
    ["amazon-bedrock", "meta.llama3-70b-instruct-v1:0", "prefix", undefined],
    ["openrouter.chat", "anthropic/claude-sonnet-4.5", "breakpoints", "openrouter"],
    ["openai.responses", "gpt-5", "key", undefined],
    ["openai.chat", "gpt-4o", "key", undefined],
    ["google.generative-ai", "gemini-2.5-pro", "prefix", undefined],
    ["vertex.chat", "gemini-2.5-pro", "prefix", undefined],
    ["local.chat", "claude-sonnet-4-5", "prefix", undefined],
    ["mock", "claude-opus-4", "prefix", undefined],
  ])("%s (%s) → %s", (provider, id, scheme, key) => {
    const caching = providerCaching(model(provider, id), "5m");
    expect(caching.scheme).toBe(scheme);
    if (key) expect(Object.keys(caching.carrier!.message!)).toEqual([key]);
    else expect(caching.carrier).toBeUndefined();
  });

  it("a host's scheme overrides: breakpoints for an unknown gateway in every package's spelling, or nothing", () => {
    const gateway = providerCaching(model("litellm.chat"), "1h", "breakpoints");
    expect(gateway.carrier!.message).toEqual({
      anthropic: { cacheControl: { type: "ephemeral", ttl: "1h" } },
      openrouter: { cacheControl: { type: "ephemeral", ttl: "1h" } },
      openaiCompatible: { cache_control: { type: "ephemeral", ttl: "1h" } },
    });
    expect(gateway.carrier!.part).toEqual({ openaiCompatible: { cache_control: { type: "ephemeral", ttl: "1h" } } });
    expect(providerCaching(model("anthropic.messages"), "5m", "prefix")).toEqual({ scheme: "prefix" });
  });
});

describe("cache settings", () => {
  it("merge from createAgent's to the agent's to the prompt's, field by field; on by default", () => {
    expect(resolveCache()).toEqual({ enabled: true, ttl: "5m" });
    expect(resolveCache(false)).toEqual({ enabled: false, ttl: "5m" });
    expect(resolveCache("1h", false)).toEqual({ enabled: false, ttl: "1h" });
    expect(resolveCache("1h", false, { enabled: true })).toEqual({ enabled: true, ttl: "1h" });
    expect(resolveCache({ scheme: "breakpoints" }, undefined, { ttl: "1h" })).toEqual({ enabled: true, ttl: "1h", scheme: "breakpoints" });
  });

  it("refuse what is not a setting", () => {
    for (const bad of ["on", "5m", 1, null, { ttl: "2h" }, { enabled: "yes" }, { scheme: "auto" }, { extra: 1 }]) expect(CacheSetting.safeParse(bad).success).toBe(false);
    for (const good of [true, false, "1h", {}, { enabled: false }, { ttl: "5m", scheme: "key" }]) expect(CacheSetting.safeParse(good).success).toBe(true);
  });

  it("off sends one system string and no key; a key joins the options unless the host set one", () => {
    const off = cachePlan(model("anthropic.messages"), resolveCache(false), "ses_1", undefined);
    expect(off).toEqual({ scheme: "off" });
    expect(systemForRequest(off, ["stable"], ["volatile"])).toBe("stable\n\nvolatile");
    const on = cachePlan(model("anthropic.messages"), resolveCache(), "ses_1", undefined);
    expect(systemForRequest(on, ["a", "b"], ["v"])).toEqual([
      { role: "system", content: "a\n\nb" },
      { role: "system", content: "v" },
    ]);
    expect(systemForRequest(on, ["a"], [])).toBe("a");
    const key = cachePlan(model("openai.responses"), resolveCache(), "ses_1", undefined);
    const given = { openai: { store: false } };
    expect(withCacheKey(given, key)).toEqual({ openai: { store: false, promptCacheKey: "ses_1" } });
    expect(given).toEqual({ openai: { store: false } });
    expect(withCacheKey({ openai: { promptCacheKey: "mine" } }, key)).toEqual({ openai: { promptCacheKey: "mine" } });
    expect(withCacheKey({}, on)).toEqual({});
  });
});

const text = (t: string) => ({ type: "text" as const, text: t });
const big = "x".repeat(5_000);

function call(messages: LanguageModelV4Message[], tools = 3, description = ""): LanguageModelV4CallOptions {
  return {
    prompt: messages,
    tools: Array.from({ length: tools }, (_, i) => ({ type: "function" as const, name: `t${i}`, description, inputSchema: { type: "object" } })),
  };
}

const plan = { carrier: providerCaching(model("anthropic.messages"), "5m").carrier!, minTokens: 1024 };
const marked = (value: object) => ((value as { providerOptions?: unknown }).providerOptions as { anthropic?: { cacheControl?: unknown } } | undefined)?.anthropic?.cacheControl !== undefined;

describe("placeBreakpoints", () => {
  it("marks the last tool, the stable system message, where the previous request ended, and the newest message", () => {
    const messages: LanguageModelV4Message[] = [
      { role: "system", content: big },
      { role: "system", content: "volatile" },
      { role: "user", content: [text("q")] },
      { role: "assistant", content: [{ type: "tool-call", toolCallId: "1", toolName: "t0", input: {} }] },
      { role: "tool", content: [{ type: "tool-result", toolCallId: "1", toolName: "t0", output: { type: "text", value: "r" } }] },
    ];
    const out = placeBreakpoints(call(messages, 3, big), plan);
    expect(out.prompt.map(marked)).toEqual([true, false, true, false, true]);
    expect(out.tools!.map(marked)).toEqual([false, false, true]);
    // Tool definitions shorter than the minimum are not worth a breakpoint of their own.
    expect(placeBreakpoints(call(messages), plan).tools!.map(marked)).toEqual([false, false, false]);
  });

  it("never edits what it is given, keeps a host's own marks, and leaves a request with automatic caching alone", () => {
    const user = { role: "user" as const, content: [text(big)], providerOptions: { anthropic: { cacheControl: { type: "ephemeral", ttl: "1h" } }, other: { x: 1 } } };
    const params = call([{ role: "system", content: "s" }, user]);
    const frozen = JSON.stringify(params);
    const out = placeBreakpoints(params, plan);
    expect(JSON.stringify(params)).toBe(frozen);
    expect(out.prompt[1]!.providerOptions).toEqual(user.providerOptions);
    const automatic = { ...params, providerOptions: { anthropic: { cacheControl: { type: "ephemeral" } } } };
    expect(placeBreakpoints(automatic, plan)).toBe(automatic);
  });

  it("places none before a prefix reaches the minimum", () => {
    const out = placeBreakpoints(call([{ role: "system", content: "short" }, { role: "user", content: [text("x".repeat(3_000))] }, { role: "assistant", content: [text("a")] }, { role: "user", content: [text("x".repeat(3_000))] }], 0), plan);
    // 4,096 characters (1,024 tokens) are first reached in the second user message.
    expect(out.prompt.map(marked)).toEqual([false, false, false, true]);
  });

  it("at most four, whatever the conversation (generated)", () => {
    const role = fc.constantFrom("user", "assistant", "tool");
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 3 }), fc.array(fc.tuple(role, fc.integer({ min: 1, max: 3_000 })), { maxLength: 30 }), fc.integer({ min: 0, max: 5 }), (systems, turns, tools) => {
        const messages: LanguageModelV4Message[] = [
          ...Array.from({ length: systems }, () => ({ role: "system" as const, content: "s".repeat(1_500) })),
          ...turns.map(([r, n]): LanguageModelV4Message =>
            r === "tool"
              ? { role: "tool", content: [{ type: "tool-result", toolCallId: "c", toolName: "t", output: { type: "text", value: "o".repeat(n) } }] }
              : { role: r as "user" | "assistant", content: [text("m".repeat(n))] },
          ),
        ];
        const out = placeBreakpoints(call(messages, tools), plan);
        const count = out.prompt.filter(marked).length + (out.tools ?? []).filter(marked).length;
        expect(count).toBeLessThanOrEqual(MAX_BREAKPOINTS);
        // No assistant message is marked, and the newest message is whenever the request is long enough.
        expect(out.prompt.some((m, i) => marked(m) && m.role === "assistant" && i !== out.prompt.length - 1)).toBe(false);
      }),
      { numRuns: 300 },
    );
  });
});

describe("savedByCache", () => {
  const price = { input: 3, output: 15, cache: { read: 0.3, write: 3.75 } };
  it("is the uncached cost less the cost: reads save 90%, writes cost 25% more", () => {
    const tokens = { input: 100, output: 50, reasoning: 0, cache: { read: 10_000, write: 2_000 } };
    expect(savedByCache(tokens, price)).toBeCloseTo((10_000 * (3 - 0.3) - 2_000 * (3.75 - 3)) / 1e6, 12);
    expect(savedByCache({ ...tokens, cache: { read: 0, write: 4_000 } }, price)).toBeLessThan(0);
    expect(savedByCache(tokens, undefined)).toBe(0);
    expect(savedByCache({ ...tokens, cache: { read: 0, write: 0 } }, price)).toBe(0);
  });
});
