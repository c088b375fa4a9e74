import type { LanguageModelV4CallOptions } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { createAgent, SUMMARY_PROMPT } from "@lathe/core";
import { mockModel, type MockTurn } from "@lathe/mock";
import { echoTool } from "./helpers.js";

/** Reads a run's text stream to the end. */
async function readText(stream: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const text of stream) out.push(text);
  return out;
}

const promptText = (call: LanguageModelV4CallOptions) => JSON.stringify(call.prompt);

describe("run.textStream", () => {
  it("yields the assistant's text deltas only: no reasoning, no tool input, across steps", async () => {
    const model = mockModel(
      [
        { reasoning: "THINKING HARD", text: "Let me echo. ", toolCalls: [{ name: "echo", input: { text: "TOOL INPUT" } }] },
        { reasoning: "MORE THOUGHT", text: "Echoed it." },
      ],
      { chunkSize: 4 },
    );
    const agent = createAgent({ model, tools: [echoTool()], snapshots: false });
    const session = await agent.sessions.create();
    const run = agent.prompt(session.id, "echo something");
    const texts = await readText(run.textStream);
    expect(texts.length).toBeGreaterThan(2); // streamed in deltas, not one string at the end
    expect(texts.join("")).toBe("Let me echo. Echoed it.");
    const { info } = await run;
    expect(info.error).toBeUndefined();
    // Each access starts over from the run's first event, also after the run ended.
    expect((await readText(run.textStream)).join("")).toBe("Let me echo. Echoed it.");
    await agent.close();
  });

  it("leaves out a subagent's words and a compaction summary", async () => {
    let delegated = false;
    const route = (call: LanguageModelV4CallOptions): MockTurn => {
      const prompt = promptText(call);
      if (prompt.includes(SUMMARY_PROMPT.slice(0, 40))) return { text: "## Goal\nSUMMARY TEXT" };
      // The subagent's request carries the task's prompt, without the parent's history.
      if (!prompt.includes("delegate please")) return { text: "SUBAGENT WORDS" };
      if (delegated) return { text: "Parent done." };
      delegated = true;
      // A step that fills the context, so the loop compacts (a summary in this session) before going on.
      return { toolCalls: [{ name: "task", input: { description: "look up", prompt: "look it up for me", subagent: "general" } }], usage: { input: 99_500, output: 10 } };
    };
    const model = mockModel(Array.from({ length: 10 }, () => route));
    const agent = createAgent({ model, snapshots: false, models: { "mock-model": { contextWindow: 100_000, maxOutputTokens: 1_000 } } });
    const session = await agent.sessions.create();
    const run = agent.prompt(session.id, "delegate please: look it up for me");
    const text = (await readText(run.textStream)).join("");
    const { info } = await run;
    expect(info.error).toBeUndefined();
    // The subagent answered (its words reached the parent's task result, not the stream).
    expect(model.calls.some((c) => promptText(c).includes("SUBAGENT WORDS"))).toBe(true);
    // The overflowing step made the loop compact (a summary in this session) before answering.
    expect(model.calls.some((c) => promptText(c).includes(SUMMARY_PROMPT.slice(0, 40)))).toBe(true);
    expect(text).toBe("Parent done.");
    await agent.close();
  });

  it("ends without throwing when the model fails; the error is on the result", async () => {
    const model = mockModel([{ text: "Partial ", error: new Error("connection reset") }], { chunkSize: 100 });
    const agent = createAgent({ model, snapshots: false, retry: { maxRetries: 0 } });
    const session = await agent.sessions.create();
    const run = agent.prompt(session.id, "hi");
    await readText(run.textStream);
    const { info } = await run;
    expect(info.error?.message).toContain("connection reset");
    await agent.close();
  });

  it("throws when the run could not start", async () => {
    const agent = createAgent({ model: mockModel([]), snapshots: false });
    const run = agent.prompt("ses_missing", "hi");
    await expect(readText(run.textStream)).rejects.toThrow();
    await agent.close();
  });
});
