// A model whose input cap is below its window (OpenAI's GPT-5 family: 272k of 400k) is compacted
// at the cap, not at the window: a request over the cap would be rejected however much window is left.
import type { LanguageModelV4CallOptions } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { createAgent, SUMMARY_PROMPT, type ModelFacts } from "@lathe/core";
import { mockModel } from "@lathe/mock";
import { collect, echoTool } from "./helpers.js";

const isSummaryRequest = (call: LanguageModelV4CallOptions) => {
  const last = [...call.prompt].reverse().find((m) => m.role === "user");
  const text = last && Array.isArray(last.content) ? last.content.map((p) => (p.type === "text" ? p.text : "")).join("") : "";
  return text === SUMMARY_PROMPT;
};

describe("an input cap below the window", () => {
  for (const [label, modelId, models] of [
    ["set by the host", "mock-model", { "mock-model": { contextWindow: 400_000, maxOutputTokens: 128_000, maxInputTokens: 272_000 } }],
    ["from the built-in table (gpt-5.2)", "gpt-5.2", {}],
    ["from the built-in table, dated (gpt-5-2025-08-07)", "gpt-5-2025-08-07", {}],
  ] as const) {
    it(`compacts exactly at the cap and not one token under (${label})`, async () => {
      for (const [under, expectSummary] of [
        [0, true],
        [1, false],
      ] as const) {
        const model = mockModel(
          [
            { toolCalls: [{ name: "echo", input: { text: "x" } }], usage: { input: 272_000 - 500 - under, output: 500 } },
            (call) => (isSummaryRequest(call) ? { text: "## Goal\nEcho x." } : { text: "done" }),
            { text: "done" },
          ],
          { modelId },
        );
        const agent = createAgent({ model, tools: [echoTool()], snapshots: false, models });
        const session = await agent.sessions.create();
        const { events, result } = await collect(agent.prompt(session.id, "echo x"));
        expect(result.info.error).toBeUndefined();
        expect(isSummaryRequest(model.calls[1]!)).toBe(expectSummary);
        expect(events.some((e) => e.type === "session.compacted")).toBe(expectSummary);
      }
    });
  }
});

describe("input caps of every shape", () => {
  /** Facts shapes, each with the total a last step must reach for the next request to be compacted first. */
  const SHAPES: Array<[string, string, Record<string, ModelFacts>, number]> = [
    ["a cap and no window", "mock-model", { "mock-model": { maxInputTokens: 100_000 } }, 100_000],
    ["a cap above the window (the window, less the answer's room, governs)", "mock-model", { "mock-model": { contextWindow: 128_000, maxOutputTokens: 16_384, maxInputTokens: 200_000 } }, 128_000 - 16_384],
    ["a window whose answer room leaves less than the cap", "mock-model", { "mock-model": { contextWindow: 300_000, maxOutputTokens: 64_000, maxInputTokens: 290_000 } }, 300_000 - 20_000],
    ["gpt-5 with the host's window (the built-in cap stays)", "gpt-5", { "gpt-5": { contextWindow: 400_000 } }, 272_000],
    ["gpt-5 with the host's own cap", "gpt-5", { "gpt-5": { maxInputTokens: 300_000 } }, 300_000],
    ["gpt-5-mini through a gateway's spelling", "openai/gpt-5-mini", {}, 272_000],
  ];
  for (const [label, modelId, models, limit] of SHAPES) {
    it(`compacts at ${limit} tokens with ${label}`, async () => {
      for (const [total, expectSummary] of [
        [limit, true],
        [limit - 1, false],
      ] as const) {
        const model = mockModel(
          [
            { toolCalls: [{ name: "echo", input: { text: "x" } }], usage: { input: total - 500, output: 500 } },
            (call) => (isSummaryRequest(call) ? { text: "## Goal\nEcho x." } : { text: "done" }),
            { text: "done" },
          ],
          { modelId },
        );
        const agent = createAgent({ model, tools: [echoTool()], snapshots: false, models });
        const session = await agent.sessions.create();
        const { result } = await collect(agent.prompt(session.id, "echo x"));
        expect(result.info.error).toBeUndefined();
        expect(isSummaryRequest(model.calls[1]!), `${total} tokens`).toBe(expectSummary);
        await agent.close();
      }
    });
  }

  for (const [label, models, expectSummary] of [
    ["over GPT-5's 272k input cap: compacted first", {}, true],
    ["with the host lifting the cap to the window: sent as it is", { "gpt-5": { maxInputTokens: 400_000 } }, false],
  ] as const) {
    it(`a new prompt that takes the request from 130k to about 280k tokens, ${label}`, async () => {
      // The last step counted 130k tokens and the new prompt adds about 150k: over the cap, well
      // under the 400k window. Under the cap the summary is made before the prompt goes out.
      const model = mockModel(
        [
          { text: "read it all", usage: { input: 129_000, output: 1_000 } },
          (call) => (isSummaryRequest(call) ? { text: "## Goal\nRead the files." } : { text: "done", usage: { input: 280_000, output: 10 } }),
          { text: "done", usage: { input: 160_000, output: 10 } },
        ],
        { modelId: "gpt-5" },
      );
      const agent = createAgent({ model, snapshots: false, models });
      const session = await agent.sessions.create();
      await agent.prompt(session.id, "read everything");
      const { events, result } = await collect(agent.prompt(session.id, "x".repeat(600_000)));
      expect(result.info.error).toBeUndefined();
      expect(isSummaryRequest(model.calls[1]!)).toBe(expectSummary);
      expect(events.some((e) => e.type === "session.compacted")).toBe(expectSummary);
      if (expectSummary) expect(JSON.stringify(model.calls[2]!.prompt)).toContain("Read the files.");
      await agent.close();
    });
  }
});
