import type { LanguageModelV4CallOptions } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createAgent, isOutputValidationError } from "@lathe/core";
import { MemoryStorage } from "@lathe/storage";
import { echoTool } from "./helpers.js";
import { callTurn, scripted, textTurn } from "./mock-turns.js";

function toolTurn(id: string, text: string) {
  return callTurn(id, "echo", { text });
}

/** The text of the last user message of a request (the repair feedback, when there is one). */
function lastUserText(call: LanguageModelV4CallOptions): string {
  const last = call.prompt.findLast((m) => m.role === "user");
  return (last?.content ?? []).map((c) => (c.type === "text" ? c.text : "")).join("");
}

const Review = z.object({ verdict: z.enum(["approve", "reject"]), findings: z.array(z.string()) });

describe("structured output (`output: schema`)", () => {
  it("a valid answer after tool calls: typed `output`, the JSON-schema response format on every step, stored for a reload", async () => {
    const model = scripted(toolTurn("c1", "look"), textTurn(`{"verdict":"approve","findings":["tidy"]}`));
    const storage = new MemoryStorage();
    const agent = createAgent({ model, storage, tools: [echoTool()] });
    const session = await agent.sessions.create();
    const result = await agent.prompt(session.id, "review", { output: Review });

    expect(result.info.error).toBeUndefined();
    expect(result.info.finish).toBe("stop");
    expect(result.output).toEqual({ verdict: "approve", findings: ["tidy"] });
    expect(result.info.output).toEqual(result.output);
    // Both steps asked for JSON with the schema, and tools were offered alongside.
    expect(model.doStreamCalls).toHaveLength(2);
    for (const call of model.doStreamCalls) {
      expect(call.responseFormat).toMatchObject({ type: "json", schema: { type: "object", required: ["verdict", "findings"] } });
      expect(call.tools?.map((t) => t.name)).toContain("echo");
    }
    // The system prompt states the schema, for providers without a response format.
    const system = model.doStreamCalls[0]!.prompt.find((m) => m.role === "system");
    expect(system?.content).toContain('"verdict"');

    const reloaded = await createAgent({ model: scripted(), storage }).sessions.messages(session.id);
    const last = reloaded.at(-1)!.info;
    expect(last.role === "assistant" && last.output).toEqual({ verdict: "approve", findings: ["tidy"] });
  });

  it("an invalid answer is fed back and repaired: the bad text leaves the message, the model sees why", async () => {
    const model = scripted(textTurn(`{"verdict":"maybe","findings":[]}`), textTurn("not json at all"), textTurn(`{"verdict":"reject","findings":["bug"]}`));
    const agent = createAgent({ model, tools: [] });
    const session = await agent.sessions.create();
    const result = await agent.prompt(session.id, "review", { output: Review });

    expect(result.info.error).toBeUndefined();
    expect(result.output).toEqual({ verdict: "reject", findings: ["bug"] });
    expect(model.doStreamCalls).toHaveLength(3);
    const second = lastUserText(model.doStreamCalls[1]!);
    expect(second).toContain(`{"verdict":"maybe","findings":[]}`);
    expect(second).toContain("did not match schema");
    expect(lastUserText(model.doStreamCalls[2]!)).toContain("could not parse");
    const texts = result.parts.flatMap((p) => (p.type === "text" ? [p.text] : []));
    expect(texts).toEqual([`{"verdict":"reject","findings":["bug"]}`]);
  });

  it("never valid: after the bounded repairs the run resolves with an OutputValidationError", async () => {
    const model = scripted(textTurn("nope"), textTurn(`{"verdict":1}`));
    const agent = createAgent({ model, tools: [] });
    const session = await agent.sessions.create();
    const result = await agent.prompt(session.id, "review", { output: Review, outputRepairs: 1 });

    expect(model.doStreamCalls).toHaveLength(2);
    expect(result.output).toBeUndefined();
    expect(result.info.output).toBeUndefined();
    expect(result.info.finish).toBe("error");
    expect(result.info.error).toMatchObject({ name: "OutputValidationError", data: { text: `{"verdict":1}`, attempts: 2 } });
    expect(isOutputValidationError(result.info.error)).toBe(true);
    expect(result.info.error?.message).toMatch(/after 2 attempts/);
    // The last answer stays in the message, so the host can see what the model wrote.
    expect(result.parts.some((p) => p.type === "text" && p.text === `{"verdict":1}`)).toBe(true);
  });

  it("no repairs: `outputRepairs: 0` fails on the first invalid answer; a bad count is refused", async () => {
    const agent = createAgent({ model: scripted(textTurn("[]")), tools: [] });
    const session = await agent.sessions.create();
    const result = await agent.prompt(session.id, "review", { output: Review, outputRepairs: 0 });
    expect(result.info.error?.name).toBe("OutputValidationError");
    expect(() => agent.prompt(session.id, "again", { output: Review, outputRepairs: -1 })).toThrow(/outputRepairs/);
  });

  it("the step limit's last step still owes the schema: tools kept for the cache but told none will run, one chance", async () => {
    const model = scripted(toolTurn("c1", "a"), textTurn("no json here"));
    const agent = createAgent({ model, tools: [echoTool()] });
    const session = await agent.sessions.create();
    const result = await agent.prompt(session.id, "review", { output: Review, maxSteps: 2 });
    expect(model.doStreamCalls).toHaveLength(2);
    expect(model.doStreamCalls[1]!.tools).toEqual(model.doStreamCalls[0]!.tools);
    expect(lastUserText(model.doStreamCalls[1]!)).toContain("No more tool calls will run");
    expect(lastUserText(model.doStreamCalls[1]!)).toContain("only the JSON value");
    expect(result.info.error).toMatchObject({ name: "OutputValidationError", data: { attempts: 1 } });
  });

  it("a prompt without a schema asks for no response format and has no output", async () => {
    const model = scripted(textTurn("plain"));
    const agent = createAgent({ model, tools: [] });
    const session = await agent.sessions.create();
    const result = await agent.prompt(session.id, "hi");
    expect(result.output).toBeUndefined();
    expect(model.doStreamCalls[0]!.responseFormat).toBeUndefined();
  });

  describe("subagents: `task` with an `output_schema`", () => {
    const schema = { type: "object", properties: { count: { type: "integer" } }, required: ["count"], additionalProperties: false };
    const task = (outputSchema: unknown) => callTurn("t1", "task", { description: "count", prompt: "count files", subagent: "general", output_schema: outputSchema });

    it("the child answers in the schema (repaired once); the task result is the validated JSON", async () => {
      const model = scripted(task(schema), textTurn(`{"count":"three"}`), textTurn(`{"count":3}`), textTurn("The child counted 3."));
      const agent = createAgent({ model, tools: [], agents: { build: { tools: { task: true } } } });
      const session = await agent.sessions.create();
      const result = await agent.prompt(session.id, "delegate");

      expect(result.info.error).toBeUndefined();
      const call = result.parts.find((p) => p.type === "tool" && p.tool === "task");
      expect(call?.type === "tool" && call.state.status === "completed" && call.state.output).toContain(`<task_result>\n{"count":3}\n</task_result>`);
      expect(call?.type === "tool" && call.state.status === "completed" && call.state.metadata).toMatchObject({ output: { count: 3 } });
      // The child's requests asked for the schema; the parent's did not.
      expect(model.doStreamCalls[0]!.responseFormat).toBeUndefined();
      expect(model.doStreamCalls[1]!.responseFormat).toMatchObject({ type: "json", schema: { required: ["count"] } });
      expect(model.doStreamCalls[3]!.responseFormat).toBeUndefined();
      const child = (await agent.sessions.list({ parentID: session.id })).sessions[0]!;
      const stored = (await agent.sessions.messages(child.id)).at(-1)!.info;
      expect(stored.role === "assistant" && stored.output).toEqual({ count: 3 });
    });

    it("a child that never matches fails the task call with the validation error", async () => {
      const model = scripted(task(schema), textTurn("3"), textTurn("three"), textTurn("[]"), textTurn("The task failed."));
      const agent = createAgent({ model, tools: [], agents: { build: { tools: { task: true } } } });
      const session = await agent.sessions.create();
      const result = await agent.prompt(session.id, "delegate");
      const call = result.parts.find((p) => p.type === "tool" && p.tool === "task");
      expect(call?.type === "tool" && call.state.status === "error" && call.state.error).toMatch(/did not match the output schema after 3 attempts/);
    });

    it("an output_schema that is no JSON schema is refused before a child session is made", async () => {
      const model = scripted(task({ type: "no-such-type" }), textTurn("ok"));
      const agent = createAgent({ model, tools: [], agents: { build: { tools: { task: true } } } });
      const session = await agent.sessions.create();
      const result = await agent.prompt(session.id, "delegate");
      const call = result.parts.find((p) => p.type === "tool" && p.tool === "task");
      expect(call?.type === "tool" && call.state.status === "error" && call.state.error).toMatch(/output_schema/);
      expect((await agent.sessions.list({ parentID: session.id })).sessions).toHaveLength(0);
    });
  });
});
