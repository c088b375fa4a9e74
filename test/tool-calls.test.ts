import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import { describe, expect, it } from "vitest";
import { createAgent, type AgentOptions } from "@lathe/core";
import { mockModel, type MockModel } from "@lathe/mock";
import { builtinTools, defineTool } from "@lathe/tools";
import { echoTool } from "./helpers.js";

const workspace = () => mkdtempSync(join(tmpdir(), "lathe-calls-"));
const offered = (model: MockModel, call = 0) => (model.calls[call]!.tools ?? []).map((t) => t.name).sort();

describe("the task tool with the host's own tools", () => {
  const custom = defineTool({ name: "custom", description: "A host tool.", parameters: z.object({}), async execute() { return { title: "c", output: "c" }; } });
  for (const [label, tools] of [
    ["builtinTools()", () => builtinTools()],
    ["builtinTools() plus the host's", () => [...builtinTools(), custom]],
    ["only the host's", () => [custom]],
  ] as const) {
    it(`is offered with ${label}`, async () => {
      const model = mockModel([{ text: "ok" }]);
      const agent = createAgent({ model, cwd: workspace(), snapshots: false, tools: tools() });
      await agent.prompt((await agent.sessions.create()).id, "hi");
      expect(offered(model)).toContain("task");
    });
  }

  it("is not offered when the agent switches it off or a rule denies it, and @agent then hints at no tool", async () => {
    const options: Partial<AgentOptions>[] = [{ agents: { build: { tools: { task: false } } } }, { permission: { task: "deny" } }];
    for (const extra of options) {
      const model = mockModel([{ text: "ok" }]);
      const agent = createAgent({ ...extra, model, cwd: workspace(), snapshots: false, tools: builtinTools() });
      const session = await agent.sessions.create();
      await agent.prompt(session.id, "ask @general to look around");
      expect(offered(model)).not.toContain("task");
      const sent = JSON.stringify(model.calls[0]!.prompt);
      expect(sent).not.toContain("task tool");
      expect(sent).toContain("cannot be started from here");
    }
  });

  it("an @agent reference names the task tool when it is offered", async () => {
    const model = mockModel([{ text: "ok" }]);
    const agent = createAgent({ model, cwd: workspace(), snapshots: false, tools: builtinTools() });
    await agent.prompt((await agent.sessions.create()).id, "ask @general to look around");
    expect(JSON.stringify(model.calls[0]!.prompt)).toContain('use the task tool with subagent \\"general\\"');
  });
});

describe("what is stored is what ran", () => {
  it("a hook's rewritten input is stored as the input, the model's own beside it and in its history", async () => {
    const ran: string[] = [];
    const model = mockModel([{ toolCalls: [{ name: "echo", input: { text: "model wrote this" } }] }, { text: "done" }]);
    const agent = createAgent({
      model,
      cwd: workspace(),
      snapshots: false,
      tools: [echoTool(ran)],
      hooks: {
        "tool.execute.before": (_input, output) => {
          output.args.text = "hook changed it";
        },
      },
    });
    const { parts } = await agent.prompt((await agent.sessions.create()).id, "go");
    expect(ran).toEqual(["hook changed it"]);
    const call = parts.find((p) => p.type === "tool")!;
    expect(call.type === "tool" && call.state).toMatchObject({ status: "completed", input: { text: "hook changed it" }, modelInput: { text: "model wrote this" } });
    const history = JSON.stringify(model.calls[1]!.prompt);
    expect(history).toContain("model wrote this");
    expect(history).not.toContain('"text":"hook changed it"');
  });

  it("an input no hook changed is stored once", async () => {
    const model = mockModel([{ toolCalls: [{ name: "echo", input: { text: "same" } }] }, { text: "done" }]);
    const agent = createAgent({ model, cwd: workspace(), snapshots: false, tools: [echoTool()], hooks: { "tool.execute.before": () => {} } });
    const { parts } = await agent.prompt((await agent.sessions.create()).id, "go");
    const call = parts.find((p) => p.type === "tool")!;
    expect(call.type === "tool" && "modelInput" in call.state).toBe(false);
  });

  it("references work in prompts given as parts", async () => {
    const cwd = workspace();
    writeFileSync(join(cwd, "notes.txt"), "remember the milk\n");
    const model = mockModel([{ text: "ok" }]);
    const agent = createAgent({ model, cwd, snapshots: false });
    const session = await agent.sessions.create();
    await agent.prompt(session.id, [{ type: "text", text: "summarise @notes.txt please" }, { type: "text", text: "and @notes.txt again" }]);
    const [user] = await agent.sessions.messages(session.id);
    const synthetic = user!.parts.filter((p) => p.type === "text" && p.synthetic).map((p) => (p.type === "text" ? p.text : ""));
    expect(synthetic.join("\n")).toContain("remember the milk");
    expect(user!.parts.filter((p) => p.type === "file")).toHaveLength(1);
  });

  it("a tool-input validation error is one sentence naming the field", async () => {
    const model = mockModel([{ toolCalls: [{ name: "read", input: { filePathx: "a.txt" } }] }, { toolCalls: [{ name: "read", input: { path: 42, offset: "x" } }] }, { text: "done" }]);
    const agent = createAgent({ model, cwd: workspace(), snapshots: false });
    const { parts } = await agent.prompt((await agent.sessions.create()).id, "go");
    const errors = parts.flatMap((p) => (p.type === "tool" && p.state.status === "error" ? [p.state.error] : []));
    expect(errors).toHaveLength(2);
    expect(errors[0]).toMatch(/^Invalid input for tool "read": path: expected string, received undefined\. Fix the input and call the tool again\.$/);
    expect(errors[1]).toMatch(/path: expected string, received number; offset: expected number/);
    for (const error of errors) {
      expect(error).not.toMatch(/AI_|TypeValidationError|Value: \{|\[\s*\{/);
      expect(error.match(/Invalid input/g)).toHaveLength(1);
    }
  });
});
