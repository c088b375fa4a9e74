// A model whose input cap is below its window (OpenAI's GPT-5 family: 272k of 400k) is compacted
// at the cap, not at the window: a request over the cap would be rejected however much window is left.
import type { LanguageModelV4CallOptions } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { createAgent, SUMMARY_PROMPT } from "@lathe/core";
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
