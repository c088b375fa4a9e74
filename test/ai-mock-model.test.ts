import { experimental_streamLanguageModelCall as streamLanguageModelCall, simulateReadableStream } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import type { LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { createAgent } from "@lathe/core";
import { toModelMessages } from "@lathe/message";
import { collect, echoTool } from "./helpers.js";

const usage = {
  inputTokens: { total: 12, noCache: 10, cacheRead: 2, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};

function toolTurn(id: string, text: string): LanguageModelV4StreamPart[] {
  return [
    { type: "stream-start", warnings: [] },
    { type: "tool-input-start", id, toolName: "echo" },
    { type: "tool-input-delta", id, delta: `{"text":` },
    { type: "tool-input-delta", id, delta: `"${text}"}` },
    { type: "tool-input-end", id },
    { type: "tool-call", toolCallId: id, toolName: "echo", input: JSON.stringify({ text }) },
    { type: "finish", finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage },
  ];
}

const answer: LanguageModelV4StreamPart[] = [
  { type: "stream-start", warnings: [] },
  { type: "text-start", id: "t" },
  { type: "text-delta", id: "t", delta: "Both " },
  { type: "text-delta", id: "t", delta: "echoed." },
  { type: "text-end", id: "t" },
  { type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage },
];

describe("the loop with the AI SDK's own MockLanguageModelV4", () => {
  it("calls a tool twice, gets results, answers; events in order; storage round-trips", async () => {
    const turns = [toolTurn("c1", "a"), toolTurn("c2", "b"), answer];
    const model = new MockLanguageModelV4({
      doStream: turns.map((chunks) => ({ stream: simulateReadableStream({ chunks }) })),
    });
    const log: string[] = [];
    const agent = createAgent({ model, tools: [echoTool(log)] });
    const session = await agent.sessions.create();
    const { events, result } = await collect(agent.prompt(session.id, "echo a then b"));

    expect(log).toEqual(["a", "b"]);
    expect(result.info.finish).toBe("stop");
    expect(result.info.tokens).toEqual({ input: 30, output: 15, reasoning: 0, cache: { read: 6, write: 0 } } satisfies typeof result.info.tokens);
    expect(model.doStreamCalls).toHaveLength(3);

    // Events: busy first, idle last; each tool goes pending → running → completed, in that order.
    expect(events[0]?.type).toBe("session.status");
    expect(events.at(-1)).toMatchObject({ type: "session.status", status: { type: "idle" } });
    for (const callID of ["c1", "c2"]) {
      const states = events.flatMap((e) =>
        e.type === "message.part.updated" && e.part.type === "tool" && e.part.callID === callID ? [e.part.state.status] : [],
      );
      const order = [...new Set(states)];
      expect(order).toEqual(["pending", "running", "completed"]);
    }
    const textDeltas = events.flatMap((e) => (e.type === "message.part.updated" && e.part.type === "text" && e.delta ? [e.delta] : []));
    expect(textDeltas).toEqual(["Both ", "echoed."]);

    // What is stored converts to the same model messages as what the run returned.
    const stored = await agent.sessions.messages(session.id);
    const ref = { providerID: "mock-provider", modelID: "mock-model-id" };
    const fromRun = toModelMessages([stored[0]!, { info: result.info, parts: result.parts }], { model: ref });
    expect(toModelMessages(stored, { model: ref })).toEqual(fromRun);
    expect(fromRun.map((m) => m.role)).toEqual(["user", "assistant", "tool", "assistant", "tool", "assistant"]);

    // Each request converts only the messages added since the last one, yet the provider gets the
    // prompt the AI SDK builds from the whole history: compare with a fresh model sent all of it.
    const fresh = new MockLanguageModelV4({ doStream: { stream: simulateReadableStream({ chunks: answer }) } });
    const last = model.doStreamCalls[2]!.prompt;
    const { stream } = await streamLanguageModelCall({ model: fresh, instructions: (last[0] as { content: string }).content, messages: fromRun.slice(0, -1) });
    for await (const part of stream) void part;
    expect(last).toEqual(fresh.doStreamCalls[0]!.prompt);
  });
});

describe("provider warnings", () => {
  it("reach the AI SDK's AI_SDK_LOG_WARNINGS logger, as streamText reports them", async () => {
    const seen: unknown[] = [];
    const global = globalThis as { AI_SDK_LOG_WARNINGS?: unknown };
    global.AI_SDK_LOG_WARNINGS = (options: unknown) => seen.push(options);
    try {
      const chunks: LanguageModelV4StreamPart[] = [{ type: "stream-start", warnings: [{ type: "unsupported", feature: "topK" }] }, ...answer.slice(1)];
      const model = new MockLanguageModelV4({ doStream: { stream: simulateReadableStream({ chunks }) } });
      const agent = createAgent({ model, snapshots: false });
      const session = await agent.sessions.create();
      await agent.prompt(session.id, "hi");
      expect(seen).toEqual([{ warnings: [{ type: "unsupported", feature: "topK" }], provider: "mock-provider", model: "mock-model-id" }]);
    } finally {
      delete global.AI_SDK_LOG_WARNINGS;
    }
  });
});
