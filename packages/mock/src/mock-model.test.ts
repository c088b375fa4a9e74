import { streamText } from "ai";
import { describe, expect, it } from "vitest";
import { mockModel, MockScriptExhaustedError } from "./mock-model.js";

describe("mockModel", () => {
  it("streams text in chunks with usage and records the prompt", async () => {
    const model = mockModel([{ text: "Hello there, world!", usage: { input: 7, output: 3 } }], { chunkSize: 5 });
    const result = streamText({ model, prompt: "hi" });
    const deltas: string[] = [];
    for await (const part of result.stream) if (part.type === "text-delta") deltas.push(part.text);
    expect(deltas).toEqual(["Hello", " ther", "e, wo", "rld!"]);
    expect((await result.usage).inputTokens).toBe(7);
    expect((await result.usage).outputTokens).toBe(3);
    expect(model.calls).toHaveLength(1);
    expect(JSON.stringify(model.calls[0]!.prompt)).toContain("hi");
  });

  it("streams tool calls with their input in pieces", async () => {
    const model = mockModel([{ toolCalls: [{ name: "read", input: { path: "src/a.ts" }, id: "c1" }] }], { chunkSize: 2 });
    const { tool } = await import("ai");
    const { z } = await import("zod");
    const result = streamText({ model, prompt: "x", tools: { read: tool({ inputSchema: z.object({ path: z.string() }) }) } });
    const seen: string[] = [];
    for await (const part of result.stream) seen.push(part.type);
    expect(seen.filter((t) => t === "tool-input-delta").length).toBeGreaterThan(2);
    expect(await result.toolCalls).toMatchObject([{ toolCallId: "c1", toolName: "read", input: { path: "src/a.ts" } }]);
    expect(await result.finishReason).toBe("tool-calls");
  });

  it("answers turns built from the call", async () => {
    const model = mockModel([(call) => ({ text: `you sent ${call.prompt.length} message(s)` })]);
    const result = streamText({ model, prompt: "x" });
    expect(await result.text).toBe("you sent 1 message(s)");
  });

  it("fails with a clear error when the script runs out", async () => {
    const model = mockModel([{ text: "only one" }]);
    await streamText({ model, prompt: "a" }).text;
    const errors: unknown[] = [];
    const result = streamText({ model, prompt: "b", onError: ({ error }) => void errors.push(error) });
    await result.consumeStream();
    expect(errors[0]).toBeInstanceOf(MockScriptExhaustedError);
    expect(String((errors[0] as Error).message)).toMatch(/called 2 times but its script has only 1 turn/);
    expect(model.remaining).toBe(0);
  });

  it("fails mid-stream with a scripted error after the content", async () => {
    const model = mockModel([{ text: "partial", error: new Error("connection reset") }]);
    const errors: unknown[] = [];
    const result = streamText({ model, prompt: "a", onError: ({ error }) => void errors.push(error) });
    const text: string[] = [];
    try {
      for await (const part of result.stream) {
        if (part.type === "text-delta") text.push(part.text);
        if (part.type === "error") errors.push(part.error);
      }
    } catch (error) {
      errors.push(error);
    }
    expect(text.join("")).toBe("partial");
    expect((errors[0] as Error).message).toBe("connection reset");
  });
});
