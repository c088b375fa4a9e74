// Each step's request goes through the AI SDK's single-call primitive rather than `streamText`
// (packages/core/src/loop/model-call.ts): these pin down what `streamText` did that Lathe must still
// do — frame a step whatever the provider sends, stop at once on abort, report to telemetry.
import { trace } from "@opentelemetry/api";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { registerTelemetry, simulateReadableStream, type Telemetry } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import type { LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { afterEach, describe, expect, it } from "vitest";
import { createAgent } from "@lathe/core";
import { toModelMessages } from "@lathe/message";
import { echoTool } from "./helpers.js";

const usage = { inputTokens: { total: 3, noCache: 3, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 2, text: 2, reasoning: 0 } };
const finish = (unified: "stop" | "tool-calls"): LanguageModelV4StreamPart => ({ type: "finish", finishReason: { unified, raw: unified }, usage });

/** A model streaming each given list of chunks in turn, one list a request. */
function streaming(...turns: LanguageModelV4StreamPart[][]): MockLanguageModelV4 {
  let next = 0;
  return new MockLanguageModelV4({ doStream: async () => ({ stream: simulateReadableStream({ chunks: turns[next++]! }) }) });
}

afterEach(() => {
  delete (globalThis as { AI_SDK_TELEMETRY_INTEGRATIONS?: unknown }).AI_SDK_TELEMETRY_INTEGRATIONS;
  trace.disable();
});

describe("a step's model call", () => {
  it("starts a step for a provider that never sends stream-start, so each step stays its own assistant turn", async () => {
    const call = (id: string, text: string): LanguageModelV4StreamPart[] => [
      { type: "tool-call", toolCallId: id, toolName: "echo", input: JSON.stringify({ text }) },
      finish("tool-calls"),
    ];
    const model = streaming(call("c1", "a"), call("c2", "b"), [{ type: "text-start", id: "t" }, { type: "text-delta", id: "t", delta: "done" }, { type: "text-end", id: "t" }, finish("stop")]);
    const agent = createAgent({ model, tools: [echoTool()], snapshots: false });
    const session = await agent.sessions.create();
    const { info, parts } = await agent.prompt(session.id, "echo twice");
    expect(info.finish).toBe("stop");
    expect(parts.filter((p) => p.type === "step-start")).toHaveLength(3);
    const messages = toModelMessages(await agent.sessions.messages(session.id), { model: { providerID: "mock-provider", modelID: "mock-model-id" } });
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "tool", "assistant", "tool", "assistant"]);
    // The third request saw the two steps apart, as the model made them.
    expect(model.doStreamCalls[2]!.prompt.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool", "assistant", "tool"]);
  });

  it("fails a step whose stream ends with neither output nor a finish, and ends one that had output as `other`", async () => {
    const empty = createAgent({ model: streaming([{ type: "stream-start", warnings: [] }]), snapshots: false });
    const first = await empty.prompt((await empty.sessions.create()).id, "hi");
    expect(first.info.error?.message).toContain("No output generated");

    const cut = createAgent({ model: streaming([{ type: "text-start", id: "t" }, { type: "text-delta", id: "t", delta: "half an ans" }]), snapshots: false });
    const second = await cut.prompt((await cut.sessions.create()).id, "hi");
    expect(second.parts.find((p) => p.type === "text")).toMatchObject({ text: "half an ans" });
    expect(second.parts.find((p) => p.type === "step-finish")).toMatchObject({ reason: "other" });
  });

  it("stops at once when aborted while the request is still being set up", async () => {
    let asked = 0;
    const model = new MockLanguageModelV4({
      doStream: () => {
        asked++;
        return new Promise<never>(() => {}); // a provider that ignores the abort signal
      },
    });
    const agent = createAgent({ model, snapshots: false });
    const session = await agent.sessions.create();
    const run = agent.prompt(session.id, "hang");
    while (asked === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    const started = Date.now();
    run.abort();
    const { info } = await run;
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(info.finish).toBe("aborted");
    expect(agent.isBusy(session.id)).toBe(false);
  });

  it("reports to integrations registered with the AI SDK's registerTelemetry when Lathe's telemetry is off, as streamText did", async () => {
    const seen: string[] = [];
    const integration: Telemetry = {
      onStart: () => void seen.push("start"),
      onLanguageModelCallStart: () => void seen.push("call start"),
      onLanguageModelCallEnd: () => void seen.push("call end"),
      onEnd: () => void seen.push("end"),
    };
    registerTelemetry(integration);
    const agent = createAgent({ model: streaming([{ type: "text-start", id: "t" }, { type: "text-delta", id: "t", delta: "hi" }, { type: "text-end", id: "t" }, finish("stop")]), snapshots: false });
    await agent.prompt((await agent.sessions.create()).id, "hi");
    expect(seen).toEqual(["start", "call start", "call end", "end"]);
  });

  it("ends the AI SDK's spans of an attempt that failed mid-stream as errors, and those of a stream cut short", async () => {
    const exporter = new InMemorySpanExporter();
    const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer("test");
    const overloaded: LanguageModelV4StreamPart[] = [
      { type: "stream-start", warnings: [] },
      { type: "text-start", id: "t" },
      { type: "text-delta", id: "t", delta: "par" },
      { type: "error", error: { type: "error", error: { type: "overloaded_error", message: "Overloaded" } } },
    ];
    const answer: LanguageModelV4StreamPart[] = [{ type: "text-start", id: "t" }, { type: "text-delta", id: "t", delta: "whole" }, { type: "text-end", id: "t" }];
    const agent = createAgent({ model: streaming(overloaded, answer), snapshots: false, telemetry: { tracer }, retry: { maxRetries: 1 } });
    const { info } = await agent.prompt((await agent.sessions.create()).id, "hi");
    expect(info.error).toBeUndefined();
    const sdk = exporter.getFinishedSpans().filter((s) => !s.name.startsWith("lathe."));
    // Both attempts' operation, step and chat spans were exported; the failed attempt's are errors.
    expect(sdk.filter((s) => s.name.startsWith("chat "))).toHaveLength(2);
    expect(sdk.filter((s) => s.name.startsWith("invoke_agent"))).toHaveLength(2);
    expect(sdk.filter((s) => s.status.code === 2).length).toBeGreaterThan(0);
  });
});
