import { z } from "zod";
import { MockLanguageModelV4 } from "ai/test";
import type { LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { createAgent, SessionBusyError, type AgentEvent } from "@lathe/core";
import { mockModel } from "@lathe/mock";
import { defineTool } from "@lathe/tools";
import { brokenTool, collect, echoTool } from "./helpers.js";

describe("stopping cleanly", () => {
  it("aborts during streaming: no exception, message finished as aborted", async () => {
    const model = mockModel([{ text: "x".repeat(2000) }], { chunkSize: 4, delayMs: 2 });
    const agent = createAgent({ model });
    const session = await agent.sessions.create();
    const run = agent.prompt(session.id, "write a lot");
    let deltas = 0;
    for await (const event of run) {
      if (event.type === "message.part.updated" && event.delta && ++deltas === 5) run.abort();
    }
    const { info, parts } = await run;
    expect(info.finish).toBe("aborted");
    expect(info.error?.name).toBe("AbortedError");
    const text = parts.find((p) => p.type === "text");
    expect(text && text.type === "text" && text.text.length).toBeLessThan(2000);
    expect(agent.isBusy(session.id)).toBe(false);
    const stored = await agent.sessions.messages(session.id);
    expect(stored[1]!.info).toMatchObject({ finish: "aborted" });
  });

  it("aborts at once while the provider's stream hangs and ignores cancellation", async () => {
    // A body that sent one delta and then never another, nor ends when cancelled.
    const model = new MockLanguageModelV4({
      doStream: async () => ({
        stream: new ReadableStream<LanguageModelV4StreamPart>({
          start(controller) {
            controller.enqueue({ type: "stream-start", warnings: [] });
            controller.enqueue({ type: "text-start", id: "t" });
            controller.enqueue({ type: "text-delta", id: "t", delta: "partial" });
          },
          cancel: () => new Promise<void>(() => {}),
        }),
      }),
    });
    const agent = createAgent({ model, snapshots: false });
    const session = await agent.sessions.create();
    const run = agent.prompt(session.id, "hang");
    for await (const event of run) {
      if (event.type === "message.part.updated" && event.delta === "partial") setTimeout(() => run.abort(), 20);
    }
    const { info, parts } = await run;
    expect(info.finish).toBe("aborted");
    expect(parts.find((p) => p.type === "text")).toMatchObject({ text: "partial" });
    expect(agent.isBusy(session.id)).toBe(false);
  });

  it("aborts during a tool: the running tool becomes an error 'aborted'", async () => {
    let sawAbort = false;
    const slow = defineTool({
      name: "slow",
      description: "Waits until aborted.",
      parameters: z.object({}),
      execute: (_args, ctx) =>
        new Promise<never>((_resolve, reject) => {
          ctx.abort.addEventListener("abort", () => {
            sawAbort = true;
            reject(new Error("stopped"));
          });
        }),
    });
    const model = mockModel([{ toolCalls: [{ name: "slow", input: {} }] }, { text: "never" }]);
    const agent = createAgent({ model, tools: [slow] });
    const session = await agent.sessions.create();
    const run = agent.prompt(session.id, "go");
    for await (const event of run) {
      if (event.type === "message.part.updated" && event.part.type === "tool" && event.part.state.status === "running") {
        run.abort();
      }
    }
    const { info, parts } = await run;
    expect(sawAbort).toBe(true);
    expect(info.finish).toBe("aborted");
    const tool = parts.find((p) => p.type === "tool");
    expect(tool).toMatchObject({ state: { status: "error", error: "aborted" } });
    expect(model.remaining).toBe(1);
    const stored = await agent.sessions.messages(session.id);
    expect(stored[1]!.parts.find((p) => p.type === "tool")).toMatchObject({ state: { status: "error" } });
  });

  it("an aborted signal passed in options stops the run too", async () => {
    const controller = new AbortController();
    controller.abort();
    const agent = createAgent({ model: mockModel([{ text: "hi" }]) });
    const session = await agent.sessions.create();
    const { info } = await agent.prompt(session.id, "go", { signal: controller.signal });
    expect(info.finish).toBe("aborted");
  });

  it("rejects a second prompt on a busy session, and runs other sessions concurrently", async () => {
    const model = mockModel(
      [{ text: "a".repeat(200) }, { text: "b".repeat(200) }, { text: "again" }],
      { chunkSize: 10, delayMs: 1 },
    );
    const agent = createAgent({ model });
    const one = await agent.sessions.create();
    const two = await agent.sessions.create();
    const first = agent.prompt(one.id, "first");
    expect(agent.isBusy(one.id)).toBe(true);
    expect(() => agent.prompt(one.id, "second")).toThrow(SessionBusyError);
    const other = agent.prompt(two.id, "other");
    const [a, b] = await Promise.all([first, other]);
    expect(a.info.finish).toBe("stop");
    expect(b.info.finish).toBe("stop");
    expect(agent.isBusy(one.id)).toBe(false);
    expect((await agent.prompt(one.id, "third")).info.finish).toBe("stop");
  });

  it("tells the model about an unknown tool and goes on", async () => {
    const model = mockModel([{ toolCalls: [{ name: "nope", input: {} }] }, { text: "sorry" }]);
    const agent = createAgent({ model, tools: [echoTool()] });
    const session = await agent.sessions.create();
    const { info, parts } = await agent.prompt(session.id, "go");
    expect(info.finish).toBe("stop");
    const tool = parts.find((p) => p.type === "tool");
    expect(tool).toMatchObject({ tool: "nope", state: { status: "error" } });
    expect(tool?.type === "tool" && tool.state.status === "error" && tool.state.error).toContain("echo");
    expect(JSON.stringify(model.calls[1]!.prompt)).toContain("no tool named");
  });

  it("tells the model its input failed the schema and goes on", async () => {
    const log: string[] = [];
    const model = mockModel([
      { toolCalls: [{ name: "echo", input: { text: 42 } }] },
      { toolCalls: [{ name: "echo", input: { text: "fixed" } }] },
      { text: "done" },
    ]);
    const agent = createAgent({ model, tools: [echoTool(log)] });
    const session = await agent.sessions.create();
    const { parts } = await agent.prompt(session.id, "go");
    const tools = parts.filter((p) => p.type === "tool");
    expect(tools[0]).toMatchObject({ state: { status: "error" } });
    expect(tools[0]?.type === "tool" && tools[0].state.status === "error" && tools[0].state.error).toMatch(/Invalid input/);
    expect(tools[1]).toMatchObject({ state: { status: "completed" } });
    expect(log).toEqual(["fixed"]);
  });

  it("tells the model about input that is not JSON", async () => {
    const model = mockModel([{ toolCalls: [{ name: "echo", input: "{not json" }] }, { text: "ok" }]);
    const agent = createAgent({ model, tools: [echoTool()] });
    const session = await agent.sessions.create();
    const { parts, info } = await agent.prompt(session.id, "go");
    expect(info.finish).toBe("stop");
    expect(parts.find((p) => p.type === "tool")).toMatchObject({ state: { status: "error" } });
  });

  it("turns a thrown tool error into the tool's error result", async () => {
    const broken = brokenTool();
    const model = mockModel([{ toolCalls: [{ name: "broken", input: {} }] }, { text: "it failed" }]);
    const agent = createAgent({ model, tools: [broken] });
    const session = await agent.sessions.create();
    const { parts } = await agent.prompt(session.id, "go");
    expect(parts.find((p) => p.type === "tool")).toMatchObject({ state: { status: "error", error: "disk on fire" } });
    expect(JSON.stringify(model.calls[1]!.prompt)).toContain("disk on fire");
  });

  it("stops on finish reason length with an error", async () => {
    const agent = createAgent({ model: mockModel([{ text: "cut", finishReason: "length" }]) });
    const session = await agent.sessions.create();
    const { info } = await agent.prompt(session.id, "go");
    expect(info.error?.name).toBe("OutputLengthError");
  });

  it("stops on finish reason content-filter with an error", async () => {
    const agent = createAgent({ model: mockModel([{ text: "", finishReason: "content-filter" }]) });
    const session = await agent.sessions.create();
    const { info } = await agent.prompt(session.id, "go");
    expect(info.error?.name).toBe("ContentFilterError");
  });

  it("records an error thrown by the model before streaming", async () => {
    const events: AgentEvent[] = [];
    const agent = createAgent({ model: mockModel([{ throwOnStart: new Error("no route to model") }]) });
    agent.on("session.error", (e) => events.push(e));
    const session = await agent.sessions.create();
    const { info } = await agent.prompt(session.id, "go");
    expect(info.error?.message).toContain("no route to model");
    expect(events).toHaveLength(1);
  });

  it("keeps the tool definitions on the last step maxSteps allows (the cached prefix holds) and asks for a text answer", async () => {
    const model = mockModel([
      { toolCalls: [{ name: "echo", input: { text: "1" } }] },
      { toolCalls: [{ name: "echo", input: { text: "2" } }] },
      { text: "summary" },
    ]);
    const log: string[] = [];
    const agent = createAgent({ model, tools: [echoTool(log)], maxSteps: 3 });
    const session = await agent.sessions.create();
    const { info } = await agent.prompt(session.id, "go");
    expect(log).toEqual(["1", "2"]);
    expect(info.finish).toBe("stop");
    const last = model.calls[2]!;
    expect(last.tools).toEqual(model.calls[1]!.tools);
    expect(JSON.stringify(last.prompt.at(-1))).toContain("maximum number of steps");
    expect(JSON.stringify(last.prompt.at(-1))).toContain("No more tool calls will run");
  });

  it("does not run tool calls a model makes on the last step anyway", async () => {
    const model = mockModel([{ toolCalls: [{ name: "echo", input: { text: "late" } }] }]);
    const log: string[] = [];
    const agent = createAgent({ model, tools: [echoTool(log)], maxSteps: 1 });
    const session = await agent.sessions.create();
    const { parts, info } = await agent.prompt(session.id, "go");
    expect(log).toEqual([]);
    expect(info.time.completed).toBeDefined();
    // Either the SDK drops the call (tool choice "none") or Lathe records it as not run.
    for (const part of parts) if (part.type === "tool") expect(part.state.status).toBe("error");
  });

  it("asks doom_loop on the third identical call and stops the turn when rejected", async () => {
    const asked: string[] = [];
    const same = { name: "echo", input: { text: "again" } };
    const model = mockModel([{ toolCalls: [same] }, { toolCalls: [same] }, { toolCalls: [same] }, { text: "unused" }]);
    const log: string[] = [];
    const agent = createAgent({
      model,
      tools: [echoTool(log)],
      approve: async (request) => {
        asked.push(request.permission);
        return "reject";
      },
    });
    const session = await agent.sessions.create();
    const { parts } = await agent.prompt(session.id, "go");
    expect(asked).toEqual(["doom_loop"]);
    expect(log).toEqual(["again", "again"]);
    expect(parts.filter((p) => p.type === "tool").at(-1)).toMatchObject({ state: { status: "error" } });
    expect(model.remaining).toBe(1);
  });

  it("lets the loop go on when doom_loop is approved", async () => {
    const same = { name: "echo", input: { text: "again" } };
    const model = mockModel([{ toolCalls: [same] }, { toolCalls: [same] }, { toolCalls: [same] }, { text: "done" }]);
    const log: string[] = [];
    const agent = createAgent({ model, tools: [echoTool(log)], approve: async () => "once" });
    const session = await agent.sessions.create();
    const { info } = await agent.prompt(session.id, "go");
    expect(log).toHaveLength(3);
    expect(info.finish).toBe("stop");
  });

  it("gives feedback from a rejection to the model as the tool result and goes on", async () => {
    const guarded = defineTool({
      name: "guarded",
      description: "Asks first.",
      parameters: z.object({}),
      async execute(_args, ctx) {
        await ctx.ask({ permission: "guarded", patterns: ["*"] });
        return { title: "ran", output: "ran" };
      },
    });
    const model = mockModel([{ toolCalls: [{ name: "guarded", input: {} }] }, { text: "ok, I will not" }]);
    const agent = createAgent({
      model,
      tools: [guarded],
      permission: { guarded: "ask" },
      approve: async () => ({ reject: "use the other approach" }),
    });
    const session = await agent.sessions.create();
    const { info, parts } = await agent.prompt(session.id, "go");
    expect(info.finish).toBe("stop");
    expect(parts.find((p) => p.type === "tool")).toMatchObject({ state: { status: "error" } });
    expect(JSON.stringify(model.calls[1]!.prompt)).toContain("use the other approach");
  });
});

describe("tool scheduling", () => {
  it("runs read-only calls of a step in parallel and the others in order", async () => {
    const timeline: string[] = [];
    const tool = (name: string, readOnly: boolean) =>
      defineTool({
        name,
        description: name,
        parameters: z.object({ id: z.string() }),
        readOnly,
        async execute({ id }) {
          timeline.push(`start ${id}`);
          await new Promise((r) => setTimeout(r, 20));
          timeline.push(`end ${id}`);
          return { title: id, output: id };
        },
      });
    const model = mockModel([
      {
        toolCalls: [
          { name: "look", input: { id: "r1" } },
          { name: "look", input: { id: "r2" } },
          { name: "change", input: { id: "w1" } },
          { name: "change", input: { id: "w2" } },
        ],
      },
      { text: "done" },
    ]);
    const agent = createAgent({ model, tools: [tool("look", true), tool("change", false)] });
    const session = await agent.sessions.create();
    await agent.prompt(session.id, "go");
    expect(timeline.slice(0, 2)).toEqual(["start r1", "start r2"]);
    expect(timeline.slice(4)).toEqual(["start w1", "end w1", "start w2", "end w2"]);
  });
});
