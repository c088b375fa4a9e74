import { describe, it, expect } from "vitest";
import { BUILTIN_MODELS, BUILTIN_MODELS_DATE, ModelFacts, ModelPrice, resolveModelFacts } from "./model-facts.js";

const ref = (modelID: string, providerID = "test") => ({ providerID, modelID });

describe("BUILTIN_MODELS", () => {
  it("is dated with an ISO day", () => {
    expect(BUILTIN_MODELS_DATE).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(Number.isNaN(Date.parse(BUILTIN_MODELS_DATE))).toBe(false);
  });

  it("holds only entries the ModelFacts schema accepts, each with a window, an output limit and a price", () => {
    expect(Object.keys(BUILTIN_MODELS).length).toBeGreaterThanOrEqual(15);
    for (const [id, facts] of Object.entries(BUILTIN_MODELS)) {
      expect(ModelFacts.safeParse(facts).success, id).toBe(true);
      expect(facts.contextWindow, id).toBeGreaterThan(facts.maxOutputTokens ?? 0);
      expect(facts.price?.output, id).toBeGreaterThanOrEqual(facts.price?.input ?? Infinity);
    }
  });

  it("covers the widely used models the issue names", () => {
    for (const id of ["claude-opus-4-5", "claude-sonnet-4-5", "claude-haiku-4-5", "claude-3-5-haiku", "gpt-5", "gpt-5-mini", "gpt-4.1", "gpt-4o-mini", "o3", "o4-mini", "gemini-2.5-pro", "gemini-2.5-flash"]) {
      expect(BUILTIN_MODELS[id], id).toBeDefined();
    }
  });

  it("lists current models of each provider with their own published facts", () => {
    expect(BUILTIN_MODELS["claude-opus-4-6"]).toMatchObject({ contextWindow: 1_000_000, maxOutputTokens: 128_000, price: { input: 5, output: 25 } });
    expect(BUILTIN_MODELS["claude-sonnet-4-6"]).toMatchObject({ contextWindow: 1_000_000, maxOutputTokens: 64_000, price: { input: 3, output: 15 } });
    expect(BUILTIN_MODELS["gpt-5.2"]).toMatchObject({ contextWindow: 400_000, maxInputTokens: 272_000, price: { input: 1.75, output: 14 } });
    expect(BUILTIN_MODELS["gpt-5.1"]).toMatchObject({ contextWindow: 400_000, maxInputTokens: 272_000 });
    expect(BUILTIN_MODELS["gemini-3-pro-preview"]).toMatchObject({ contextWindow: 1_048_576, price: { input: 2, output: 12 } });
    expect(BUILTIN_MODELS["gemini-3-flash-preview"]).toBeDefined();
  });

  it("gives an input cap only below the window", () => {
    const capped = Object.entries(BUILTIN_MODELS).filter(([, facts]) => facts.maxInputTokens !== undefined);
    expect(capped.map(([id]) => id)).toEqual(expect.arrayContaining(["gpt-5", "gpt-5.1", "gpt-5.2", "gpt-5-mini", "gpt-5-nano"]));
    for (const [id, facts] of capped) expect(facts.maxInputTokens, id).toBeLessThan(facts.contextWindow!);
  });

  it("has the long-context tier only where the provider bills one", () => {
    const tiered = Object.entries(BUILTIN_MODELS).filter(([, facts]) => facts.price?.above200k).map(([id]) => id);
    expect(tiered.sort()).toEqual(["claude-sonnet-4", "claude-sonnet-4-5", "gemini-2.5-pro", "gemini-3-pro-preview", "gemini-3.1-pro-preview"]);
    expect(BUILTIN_MODELS["claude-sonnet-4-5"]?.price).toEqual({
      input: 3,
      output: 15,
      cache: { read: 0.3, write: 3.75, write1h: 6 },
      above200k: { input: 6, output: 22.5, cache: { read: 0.6, write: 7.5, write1h: 12 } },
    });
  });

  it("is frozen down to the cache prices", () => {
    const sonnet = BUILTIN_MODELS["claude-sonnet-4-5"]!;
    expect(Object.isFrozen(BUILTIN_MODELS)).toBe(true);
    expect(Object.isFrozen(sonnet)).toBe(true);
    expect(Object.isFrozen(sonnet.price?.cache)).toBe(true);
    expect(Object.isFrozen(sonnet.price?.above200k?.cache)).toBe(true);
    expect(() => {
      (sonnet.price as { input: number }).input = 0;
    }).toThrow(TypeError);
    expect(() => {
      (BUILTIN_MODELS as Record<string, ModelFacts>)["new-model"] = {};
    }).toThrow(TypeError);
  });
});

describe("resolveModelFacts: the built-in entry", () => {
  it("finds an exact id", () => {
    expect(resolveModelFacts(ref("gpt-4o"))).toEqual(BUILTIN_MODELS["gpt-4o"]);
  });

  it("finds the entry of a dated snapshot and of a published alias", () => {
    expect(resolveModelFacts(ref("claude-sonnet-4-5-20250929"))).toEqual(BUILTIN_MODELS["claude-sonnet-4-5"]);
    expect(resolveModelFacts(ref("claude-sonnet-4-20250514"))).toEqual(BUILTIN_MODELS["claude-sonnet-4"]);
    expect(resolveModelFacts(ref("claude-opus-4-20250514"))).toEqual(BUILTIN_MODELS["claude-opus-4"]);
    expect(resolveModelFacts(ref("claude-opus-4-1-20250805"))).toEqual(BUILTIN_MODELS["claude-opus-4-1"]);
    expect(resolveModelFacts(ref("claude-haiku-4-5-20251001"))).toEqual(BUILTIN_MODELS["claude-haiku-4-5"]);
    expect(resolveModelFacts(ref("claude-opus-4-0"))).toEqual(BUILTIN_MODELS["claude-opus-4"]);
    expect(resolveModelFacts(ref("claude-3-5-haiku-latest"))).toEqual(BUILTIN_MODELS["claude-3-5-haiku"]);
    expect(resolveModelFacts(ref("gpt-4o-2024-08-06"))).toEqual(BUILTIN_MODELS["gpt-4o"]);
    expect(resolveModelFacts(ref("gpt-4o-mini-2024-07-18"))).toEqual(BUILTIN_MODELS["gpt-4o-mini"]);
    expect(resolveModelFacts(ref("gpt-5-2025-08-07"))).toEqual(BUILTIN_MODELS["gpt-5"]);
    expect(resolveModelFacts(ref("o3-2025-04-16"))).toEqual(BUILTIN_MODELS["o3"]);
    expect(resolveModelFacts(ref("o3-pro-2025-06-10"))).toEqual(BUILTIN_MODELS["o3-pro"]);
    expect(resolveModelFacts(ref("claude-sonnet-4-5@20250929", "vertex"))).toEqual(BUILTIN_MODELS["claude-sonnet-4-5"]);
  });

  it("prefers an exact entry over the one a dated id would find", () => {
    expect(resolveModelFacts(ref("gpt-4o-2024-05-13"))).toEqual(BUILTIN_MODELS["gpt-4o-2024-05-13"]);
    expect(resolveModelFacts(ref("gpt-4o-mini"))).toEqual(BUILTIN_MODELS["gpt-4o-mini"]);
    expect(resolveModelFacts(ref("gemini-2.5-flash-lite"))).toEqual(BUILTIN_MODELS["gemini-2.5-flash-lite"]);
  });

  it.each([
    ["a newer Opus", "claude-opus-4-7"],
    ["a newer Sonnet", "claude-sonnet-4-7"],
    ["a newer Haiku", "claude-haiku-4-6"],
    ["a later generation", "claude-opus-5"],
    ["a dotted GPT-5 release", "gpt-5.9"],
    ["a GPT-5 variant", "gpt-5-codex-max"],
    ["a GPT-4o variant", "gpt-4o-audio-preview"],
    ["a newer Gemini", "gemini-3.5-pro"],
    ["a Gemini variant", "gemini-2.5-pro-preview-tts"],
    ["an o-series variant", "o3-deep-research"],
    ["a bare prefix", "gpt-4o1"],
    ["a tag", "gpt-4o:latest"],
    ["a dated id of an unknown model", "claude-opus-4-7-20260101"],
  ])("borrows no facts for an id it does not list (%s: %s)", (_, id) => {
    expect(resolveModelFacts(ref(id))).toEqual({});
  });

  it("gives claude-opus-4-6 its own facts, never Claude Opus 4's window, output limit or price", () => {
    const facts = resolveModelFacts(ref("claude-opus-4-6", "anthropic"));
    expect(facts).toEqual(BUILTIN_MODELS["claude-opus-4-6"]);
    expect(facts.price?.input).toBe(5);
    expect(facts).not.toEqual(BUILTIN_MODELS["claude-opus-4"]);
  });

  it("reads ids as gateways spell them, but does not turn dots into dashes", () => {
    expect(resolveModelFacts(ref("anthropic/claude-sonnet-4-5", "gateway"))).toEqual(BUILTIN_MODELS["claude-sonnet-4-5"]);
    expect(resolveModelFacts(ref("openai/gpt-4.1-mini", "openrouter"))).toEqual(BUILTIN_MODELS["gpt-4.1-mini"]);
    expect(resolveModelFacts(ref("us.anthropic.claude-sonnet-4-5-20250929-v1:0", "bedrock"))).toEqual(BUILTIN_MODELS["claude-sonnet-4-5"]);
    expect(resolveModelFacts(ref("anthropic.claude-3-5-haiku-20241022-v1:0", "bedrock"))).toEqual(BUILTIN_MODELS["claude-3-5-haiku"]);
    expect(resolveModelFacts(ref("anthropic.claude-opus-4-6-v1", "bedrock"))).toEqual(BUILTIN_MODELS["claude-opus-4-6"]);
    expect(resolveModelFacts(ref("GPT-4o"))).toEqual(BUILTIN_MODELS["gpt-4o"]);
    expect(resolveModelFacts(ref("anthropic/claude-sonnet-4.5", "openrouter"))).toEqual({});
    expect(resolveModelFacts(ref("anthropic/claude-opus-4.6", "openrouter"))).toEqual({});
  });

  it("knows nothing of an unknown model", () => {
    expect(resolveModelFacts(ref("my-local-model"))).toEqual({});
    expect(resolveModelFacts(ref(""))).toEqual({});
  });

  it("returns a fresh object the caller may change without touching the table", () => {
    const facts = resolveModelFacts(ref("gpt-4o"));
    facts.contextWindow = 1;
    expect(BUILTIN_MODELS["gpt-4o"]?.contextWindow).toBe(128_000);
  });
});

describe("resolveModelFacts: the host's entries", () => {
  const cheap: ModelPrice = { input: 0.01, output: 0.02 };

  it("overlays the host entry field by field", () => {
    const facts = resolveModelFacts(ref("gpt-4o"), { "gpt-4o": { contextWindow: 50_000 } });
    expect(facts).toEqual({ ...BUILTIN_MODELS["gpt-4o"], contextWindow: 50_000 });
  });

  it("lets `provider/model` win over `model`", () => {
    const facts = resolveModelFacts(ref("gpt-4o", "azure"), {
      "gpt-4o": { contextWindow: 50_000, maxOutputTokens: 1_000 },
      "azure/gpt-4o": { contextWindow: 60_000 },
      "openai/gpt-4o": { contextWindow: 70_000 },
    });
    expect(facts.contextWindow).toBe(60_000);
    expect(facts.maxOutputTokens).toBe(1_000);
    expect(facts.price).toEqual(BUILTIN_MODELS["gpt-4o"]?.price);
  });

  it("matches host keys exactly, never by prefix", () => {
    const facts = resolveModelFacts(ref("gpt-4o-2024-08-06"), { "gpt-4o": { contextWindow: 50_000 } });
    expect(facts.contextWindow).toBe(128_000);
  });

  it("replaces a price whole, tiers included", () => {
    const facts = resolveModelFacts(ref("claude-sonnet-4-5"), { "claude-sonnet-4-5": { price: cheap } });
    expect(facts.price).toEqual(cheap);
    expect(facts.contextWindow).toBe(200_000);
  });

  it("does not erase a built-in field with an explicit undefined", () => {
    const facts = resolveModelFacts(ref("gpt-4o"), { "gpt-4o": { contextWindow: undefined, price: undefined } });
    expect(facts).toEqual(BUILTIN_MODELS["gpt-4o"]);
  });

  it("describes a model the table lacks", () => {
    expect(resolveModelFacts(ref("qwen3-coder", "local"), { "local/qwen3-coder": { contextWindow: 32_768 } })).toEqual({ contextWindow: 32_768 });
  });

  it("takes the older `prices` over any other price, `provider/model` first", () => {
    const host = { "gpt-4o": { price: { input: 1, output: 1 } } };
    expect(resolveModelFacts(ref("gpt-4o"), host, { "gpt-4o": cheap }).price).toEqual(cheap);
    expect(resolveModelFacts(ref("gpt-4o", "openai"), host, { "gpt-4o": { input: 9, output: 9 }, "openai/gpt-4o": cheap }).price).toEqual(cheap);
    expect(resolveModelFacts(ref("gpt-4o"), undefined, { "other-model": cheap }).price).toEqual(BUILTIN_MODELS["gpt-4o"]?.price);
  });

  it("never reads keys inherited from Object", () => {
    expect(resolveModelFacts(ref("constructor"), {}, {})).toEqual({});
    expect(resolveModelFacts(ref("toString"))).toEqual({});
  });
});
