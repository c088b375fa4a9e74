import { trace } from "@opentelemetry/api";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { APICallError, simulateReadableStream } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import type { LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { afterEach, describe, expect, it } from "vitest";
import { createAgent } from "@lathe/core";
import { mockModel } from "@lathe/mock";
import { brokenTool, contextOverflowError, echoTool } from "./helpers.js";
import { callTurn as call, scripted, textTurn as text } from "./mock-turns.js";

function tracing() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return { exporter, provider, tracer: provider.getTracer("lathe-test") };
}

const parentOf = (spans: ReadableSpan[], span: ReadableSpan) => spans.find((s) => s.spanContext().spanId === span.parentSpanContext?.spanId);
const named = (spans: ReadableSpan[], name: string) => spans.filter((s) => s.name === name);

afterEach(() => trace.disable());

describe("OpenTelemetry traces (`telemetry: { tracer }`)", () => {
  it("turn → step → AI SDK spans and tools; permission under its tool; a subagent's turn under the task call", async () => {
    const { exporter, tracer } = tracing();
    const model = scripted(
      call("t1", "task", { description: "look", prompt: "look around", subagent: "general" }),
      call("e1", "echo", { text: "hi" }),
      text("child done"),
      text("parent done"),
    );
    const agent = createAgent({
      model,
      tools: [echoTool()],
      agents: { build: { tools: { task: true } } },
      permission: { task: "ask" },
      approve: async () => "once",
      prices: { "mock-model-id": { input: 1, output: 2 } },
      telemetry: { tracer },
    });
    const session = await agent.sessions.create();
    const result = await agent.prompt(session.id, "delegate please");
    expect(result.info.error).toBeUndefined();
    const spans = exporter.getFinishedSpans();

    const turns = named(spans, "lathe.turn");
    expect(turns).toHaveLength(2);
    const root = turns.find((s) => s.attributes["lathe.session.id"] === session.id)!;
    expect(root.parentSpanContext).toBeUndefined();
    expect(root.attributes).toMatchObject({
      "gen_ai.operation.name": "invoke_agent",
      "gen_ai.agent.name": "build",
      "gen_ai.conversation.id": session.id,
      "lathe.finish": "stop",
      "gen_ai.usage.input_tokens": 24, // the message's own two requests of 12 (the child's are on its own turn)
    });
    expect(root.attributes["lathe.cost.usd"]).toBeCloseTo(result.info.cost, 12);
    // Contents are not recorded unless asked for.
    expect(spans.some((s) => "lathe.prompt" in s.attributes || "lathe.output.text" in s.attributes)).toBe(false);

    const steps = named(spans, "lathe.step");
    expect(steps).toHaveLength(4);
    const rootSteps = steps.filter((s) => parentOf(spans, s) === root);
    expect(rootSteps.map((s) => s.attributes["lathe.step"])).toEqual([1, 2]);
    expect(rootSteps[0]!.attributes).toMatchObject({
      "gen_ai.request.model": "mock-model-id",
      "gen_ai.provider.name": "mock-provider",
      "gen_ai.usage.input_tokens": 12,
      "gen_ai.usage.output_tokens": 5,
      "gen_ai.response.finish_reasons": ["tool-calls"],
      "lathe.retries": 0,
    });
    expect(rootSteps[0]!.attributes["lathe.cost.usd"]).toBeCloseTo((12 * 1 + 5 * 2) / 1e6, 12);

    // The AI SDK's own spans hang under each step.
    for (const step of steps) {
      const sdk = spans.filter((s) => parentOf(spans, s) === step && !s.name.startsWith("lathe."));
      expect(sdk.length).toBeGreaterThan(0);
    }

    const taskTool = named(spans, "lathe.tool").find((s) => s.attributes["gen_ai.tool.name"] === "task")!;
    expect(parentOf(spans, taskTool)).toBe(rootSteps[0]);
    expect(taskTool.attributes).toMatchObject({ "gen_ai.operation.name": "execute_tool", "gen_ai.tool.call.id": "t1", "lathe.tool.status": "completed" });
    expect(typeof taskTool.attributes["lathe.tool.duration_ms"]).toBe("number");

    const permission = named(spans, "lathe.permission")[0]!;
    expect(parentOf(spans, permission)).toBe(taskTool);
    // Without contents, the patterns (a command, a URL) are only counted.
    expect(permission.attributes).toMatchObject({ "lathe.permission": "task", "lathe.permission.pattern_count": 1, "lathe.permission.reply": "allow" });
    expect(permission.attributes["lathe.permission.patterns"]).toBeUndefined();
    expect(typeof permission.attributes["lathe.permission.wait_ms"]).toBe("number");

    const subagent = named(spans, "lathe.subagent")[0]!;
    expect(parentOf(spans, subagent)).toBe(taskTool);
    const childTurn = turns.find((s) => s !== root)!;
    expect(parentOf(spans, childTurn)).toBe(subagent);
    expect(childTurn.attributes["gen_ai.agent.name"]).toBe("general");
    expect(subagent.attributes["lathe.session.id"]).toBe(childTurn.attributes["lathe.session.id"]);
    const echo = named(spans, "lathe.tool").find((s) => s.attributes["gen_ai.tool.name"] === "echo")!;
    expect(parentOf(spans, parentOf(spans, echo)!)).toBe(childTurn);
    // One trace for all of it.
    expect(new Set(spans.map((s) => s.spanContext().traceId)).size).toBe(1);
  });

  it("errors: a failing tool and a failing model request mark their spans, the turn ends in error", async () => {
    const { exporter, tracer } = tracing();
    const broken = brokenTool();
    const model = new MockLanguageModelV4({
      doStream: [
        { stream: simulateReadableStream({ chunks: call("b1", "broken", {}) }) },
        {
          stream: simulateReadableStream<LanguageModelV4StreamPart>({
            chunks: [{ type: "stream-start", warnings: [] }, { type: "error", error: new Error("model exploded") }],
          }),
        },
      ],
    });
    const agent = createAgent({ model, tools: [broken], retry: { maxRetries: 0 }, telemetry: { tracer } });
    const session = await agent.sessions.create();
    const result = await agent.prompt(session.id, "break");
    expect(result.info.error).toBeDefined();
    const spans = exporter.getFinishedSpans();

    const tool = named(spans, "lathe.tool")[0]!;
    expect(tool.status.code).toBe(2); // ERROR
    expect(tool.attributes).toMatchObject({ "lathe.tool.status": "error", "error.type": "ToolError" });
    // Without contents, the error's name only: its message may quote what the tool saw.
    expect(tool.status.message).toBeUndefined();
    expect(JSON.stringify(tool.events)).not.toContain("disk on fire");
    const steps = named(spans, "lathe.step");
    expect(steps[0]!.status.code).not.toBe(2);
    expect(steps[1]!.status.code).toBe(2);
    const turn = named(spans, "lathe.turn")[0]!;
    expect(turn.status.code).toBe(2);
    expect(turn.attributes["lathe.finish"]).toBe("error");
    expect(turn.events.some((e) => e.name === "exception")).toBe(true);
  });

  it("records the prompt, the answer and tool contents only when the host opts in", async () => {
    const { exporter, tracer } = tracing();
    const agent = createAgent({ model: scripted(call("e1", "echo", { text: "secret" }), text("the answer")), tools: [echoTool()], telemetry: { tracer, recordContent: true } });
    const session = await agent.sessions.create();
    await agent.prompt(session.id, "my prompt");
    const spans = exporter.getFinishedSpans();
    const turn = named(spans, "lathe.turn")[0]!;
    expect(turn.attributes).toMatchObject({ "lathe.prompt": "my prompt", "lathe.output.text": "the answer" });
    expect(named(spans, "lathe.tool")[0]!.attributes).toMatchObject({ "gen_ai.tool.call.arguments": `{"text":"secret"}`, "gen_ai.tool.call.result": "echo: secret" });
    // The AI SDK's provider spans record each request's whole prompt and its answer: the second
    // request still shows the user's prompt and the first step's call and result.
    const chats = spans.filter((s) => s.name.startsWith("chat "));
    expect(chats).toHaveLength(2);
    const secondInput = String(chats[1]!.attributes["gen_ai.input.messages"]);
    for (const sent of ["my prompt", "secret", "echo: secret"]) expect(secondInput).toContain(sent);
    expect(String(chats[1]!.attributes["gen_ai.output.messages"])).toContain("the answer");
  });

  it("the AI SDK's spans under a step end with the request's error when it fails", async () => {
    const { exporter, tracer } = tracing();
    const model = new MockLanguageModelV4({
      doStream: async () => {
        throw new APICallError({ message: "bad request", url: "http://x", requestBodyValues: {}, statusCode: 400, isRetryable: false });
      },
    });
    const agent = createAgent({ model, telemetry: { tracer } });
    const session = await agent.sessions.create();
    const result = await agent.prompt(session.id, "hi");
    expect(result.info.error?.message).toContain("bad request");
    const spans = exporter.getFinishedSpans();
    const step = named(spans, "lathe.step")[0]!;
    const sdk = spans.filter((s) => !s.name.startsWith("lathe.") && parentOf(spans, s) === step);
    expect(sdk.length).toBeGreaterThan(0);
    // Every SDK span ended, the failed ones marked as errors.
    expect(spans.filter((s) => !s.name.startsWith("lathe.")).some((s) => s.status.code === 2)).toBe(true);
  });

  it("a step retried after a passing failure counts its retries", async () => {
    const { exporter, tracer } = tracing();
    let requests = 0;
    const model = new MockLanguageModelV4({
      doStream: async () => {
        if (requests++ === 0) {
          throw new APICallError({
            message: "overloaded",
            url: "http://localhost/v1/chat/completions",
            requestBodyValues: {},
            statusCode: 503,
            responseHeaders: { "retry-after-ms": "5" },
            isRetryable: true,
          });
        }
        return { stream: simulateReadableStream({ chunks: text("fine") }) };
      },
    });
    const agent = createAgent({ model, tools: [], telemetry: { tracer } });
    const session = await agent.sessions.create();
    const result = await agent.prompt(session.id, "go");
    expect(result.info.error).toBeUndefined();
    const steps = named(exporter.getFinishedSpans(), "lathe.step");
    expect(steps).toHaveLength(1);
    expect(steps[0]!.attributes).toMatchObject({ "lathe.retries": 1, "gen_ai.response.finish_reasons": ["stop"] });
  });

  it("a compaction mid-turn is a lathe.compaction span under the turn", async () => {
    const { exporter, tracer } = tracing();
    const overflow = contextOverflowError();
    const model = mockModel([
      { toolCalls: [{ name: "echo", input: { text: "one" } }] },
      { throwOnStart: overflow },
      { text: "## Goal\nEcho things." },
      { text: "done after compaction" },
    ]);
    const agent = createAgent({ model, tools: [echoTool()], snapshots: false, telemetry: { tracer } });
    const session = await agent.sessions.create();
    const result = await agent.prompt(session.id, "echo one, then finish");
    expect(result.info.error).toBeUndefined();
    const spans = exporter.getFinishedSpans();
    const compaction = named(spans, "lathe.compaction");
    expect(compaction).toHaveLength(1);
    expect(parentOf(spans, compaction[0]!)?.name).toBe("lathe.turn");
    expect(compaction[0]!.attributes).toMatchObject({ "lathe.compaction.auto": true, "lathe.compaction.compacted": true });
  });

  it("a compaction asked for (`sessions.compact`) is a root lathe.compaction span", async () => {
    const { exporter, tracer } = tracing();
    const agent = createAgent({ model: mockModel([{ text: "hello" }, { text: "## Goal\nSay hello." }]), tools: [], snapshots: false, telemetry: { tracer } });
    const session = await agent.sessions.create();
    await agent.prompt(session.id, "hi");
    await agent.sessions.compact(session.id);
    const compaction = named(exporter.getFinishedSpans(), "lathe.compaction");
    expect(compaction).toHaveLength(1);
    expect(compaction[0]!.parentSpanContext).toBeUndefined();
    expect(compaction[0]!.attributes).toMatchObject({ "lathe.session.id": session.id, "lathe.compaction.auto": false });
  });

  it("records nothing when off, even with a global tracer provider registered", async () => {
    const { exporter, provider } = tracing();
    trace.setGlobalTracerProvider(provider);
    const agent = createAgent({ model: scripted(call("e1", "echo", { text: "x" }), text("done")), tools: [echoTool()] });
    const session = await agent.sessions.create();
    const result = await agent.prompt(session.id, "go");
    expect(result.info.error).toBeUndefined();
    expect(exporter.getFinishedSpans()).toHaveLength(0);
  });
});
