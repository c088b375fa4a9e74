import type { LanguageModelV4CallOptions } from "@ai-sdk/provider";
import { APICallError } from "ai";
import { describe, expect, it } from "vitest";
import { createAgent, SUMMARY_PROMPT } from "@lathe/core";
import { mockModel, type MockTurnInput } from "@lathe/mock";
import { MemoryStorage } from "@lathe/storage";

// A model whose context window Lathe does not know: it rejects any request longer than `window`
// characters (a stand-in for tokens), as a provider does, and summarises when asked to.
function smallWindowModel(window: number) {
  const sizes: number[] = [];
  const turn: MockTurnInput = (call: LanguageModelV4CallOptions) => {
    const size = JSON.stringify(call.prompt).length;
    sizes.push(size);
    if (size > window) {
      return {
        throwOnStart: new APICallError({
          message: `This model's maximum context length is ${window} tokens. However, your messages resulted in ${size} tokens.`,
          url: "http://localhost/v1/chat/completions",
          requestBodyValues: {},
          statusCode: 400,
          responseBody: '{"error":{"code":"context_length_exceeded"}}',
          isRetryable: false,
        }),
      };
    }
    const last = call.prompt.at(-1);
    const text = last?.role === "user" ? last.content.map((p) => (p.type === "text" ? p.text : "")).join("") : "";
    return { text: text === SUMMARY_PROMPT ? "## Goal\nKeep chatting about numbers." : `Noted (${size}).` };
  };
  const model = mockModel(Array.from({ length: 200 }, () => turn));
  return { model, sizes };
}

describe("overflow is always recoverable", () => {
  it("a session of a model with an unknown window that overflows is compacted below the rejected request, and every later prompt works", async () => {
    const window = 60_000;
    const { model, sizes } = smallWindowModel(window);
    const agent = createAgent({ model, tools: [], snapshots: false });
    const session = await agent.sessions.create();
    let compactions = 0;
    agent.on("session.compacted", () => compactions++);
    for (let i = 0; i < 12; i++) {
      const { info } = await agent.prompt(session.id, `Number ${i}: ${"n".repeat(9_000)}`);
      expect(info.error, `prompt ${i}: ${JSON.stringify(info.error)}`).toBeUndefined();
    }
    expect(compactions).toBeGreaterThan(0);
    // Every request that got an answer fit the window; the summary's came in below the rejected one.
    expect(sizes.filter((s) => s > window).length).toBeGreaterThan(0);
  }, 60_000);

  it("sessions.compact brings an overflowing session back into service", async () => {
    const window = 60_000;
    const big = smallWindowModel(Number.POSITIVE_INFINITY);
    const storage = new MemoryStorage();
    const agent = createAgent({ model: big.model, tools: [], snapshots: false, storage });
    const session = await agent.sessions.create();
    // Grown with a model that never refused, then continued with one that does.
    for (let i = 0; i < 12; i++) await agent.prompt(session.id, `Number ${i}: ${"n".repeat(9_000)}`);
    const small = smallWindowModel(window);
    const strict = createAgent({ model: small.model, tools: [], snapshots: false, storage });
    const summary = await strict.sessions.compact(session.id);
    expect(summary.info.error, JSON.stringify(summary.info.error)).toBeUndefined();
    // The first summary request carried the whole history and was refused; a smaller one was not.
    expect(small.sizes[0]).toBeGreaterThan(window);
    expect(small.sizes.at(-1)).toBeLessThanOrEqual(window);
    const { info } = await strict.prompt(session.id, "still there?");
    expect(info.error).toBeUndefined();
  }, 60_000);
});
