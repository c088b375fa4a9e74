import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAgent, HookError, type AgentEvent } from "@lathe/core";
import { mockModel, type MockTurn } from "@lathe/mock";
import type { LanguageModelV4CallOptions } from "@ai-sdk/provider";
import { echoTool } from "./helpers.js";

let cwd: string;
beforeEach(() => {
  cwd = mkdtempSync(join(tmpdir(), "lathe-agents-"));
  writeFileSync(join(cwd, "notes.txt"), "alpha\nbeta\n");
});
afterEach(() => rmSync(cwd, { recursive: true, force: true }));

const lastUserText = (call: LanguageModelV4CallOptions) => JSON.stringify(call.prompt.filter((m) => m.role === "user").at(-1));
const systemOf = (call: LanguageModelV4CallOptions) => call.prompt.filter((m) => m.role === "system").map((m) => m.content).join("\n");

/** One model shared by parent and children: it answers by who is asking. */
function routedModel(route: (call: LanguageModelV4CallOptions) => MockTurn, turns = 20) {
  return mockModel(Array.from({ length: turns }, () => (call: LanguageModelV4CallOptions) => route(call)));
}

describe("subagents", () => {
  it("a build agent delegates to two explore subagents in one step, gets both results and continues", async () => {
    const active = { now: 0, max: 0 };
    const model = routedModel((call) => {
      const system = systemOf(call);
      const last = lastUserText(call);
      if (system.includes("read-only search agent")) {
        if (JSON.stringify(call.prompt).includes("tool-result")) {
          active.now--;
          return { text: last.includes("alpha") ? "found alpha at notes.txt:1" : "found beta at notes.txt:2" };
        }
        active.now++;
        active.max = Math.max(active.max, active.now);
        return { toolCalls: [{ name: "grep", input: { pattern: last.includes("alpha") ? "alpha" : "beta" } }] };
      }
      if (JSON.stringify(call.prompt).includes("task_result")) return { text: "Both found." };
      return {
        toolCalls: [
          { name: "task", input: { description: "find alpha", prompt: "find alpha", subagent: "explore" } },
          { name: "task", input: { description: "find beta", prompt: "find beta", subagent: "explore" } },
        ],
      };
    });
    const agent = createAgent({ model, cwd, dataDir: join(cwd, ".data") });
    const session = await agent.sessions.create();
    const run = agent.prompt(session.id, "find alpha and beta");
    const events: AgentEvent[] = [];
    for await (const event of run) events.push(event);
    const { info, parts } = await run;
    expect(info.finish).toBe("stop");
    const tasks = parts.flatMap((p) => (p.type === "tool" && p.tool === "task" ? [p] : []));
    expect(tasks).toHaveLength(2);
    const outputs = tasks.map((t) => (t.state.status === "completed" ? t.state.output : t.state.status));
    expect(outputs[0]).toContain("found alpha");
    expect(outputs[1]).toContain("found beta");
    expect(outputs[0]).toMatch(/^task_id: ses_/);
    // Both children were working at once.
    expect(active.max).toBe(2);
    // Children's events reached the parent's run, under their own session ids.
    const childIDs = new Set(events.map((e) => e.sessionID).filter((id) => id !== session.id));
    expect(childIDs.size).toBe(2);
    const children = await agent.sessions.list({ parentID: session.id });
    expect(children.sessions).toHaveLength(2);
    // Their usage rolled up into the parent.
    const parent = await agent.sessions.get(session.id);
    const childTotals = await Promise.all(children.sessions.map((c) => agent.sessions.get(c.id)));
    const childOutput = childTotals.reduce((sum, c) => sum + (c?.usage.tokens.output ?? 0), 0);
    expect(parent!.usage.tokens.output).toBe(info.tokens.output + childOutput);
  });

  it("continues a task when its task_id is passed again", async () => {
    const child = mockModel([{ text: "Noted: 42." }, { text: "It was 42." }]);
    const parent = mockModel([
      { toolCalls: [{ name: "task", input: { description: "remember", prompt: "remember the number 42", subagent: "general" } }] },
      (call) => {
        const taskID = /task_id: (ses_\w+)/.exec(JSON.stringify(call.prompt))![1]!;
        return { toolCalls: [{ name: "task", input: { description: "ask again", prompt: "what was the number?", subagent: "general", task_id: taskID } }] };
      },
      { text: "The child remembered." },
    ]);
    const agent = createAgent({ model: parent, cwd, dataDir: join(cwd, ".data"), agents: { general: { model: child } } });
    const session = await agent.sessions.create();
    const { info, parts } = await agent.prompt(session.id, "use a subagent twice");
    expect(info.finish).toBe("stop");
    const tasks = parts.flatMap((p) => (p.type === "tool" && p.tool === "task" && p.state.status === "completed" ? [p.state] : []));
    expect(tasks).toHaveLength(2);
    expect(tasks[0]!.metadata.task_id).toBe(tasks[1]!.metadata.task_id);
    expect(tasks[1]!.output).toContain("It was 42.");
    // The child saw its own earlier exchange when continued.
    expect(JSON.stringify(child.calls[1]!.prompt)).toContain("Noted: 42.");
    const history = await agent.sessions.messages(String(tasks[0]!.metadata.task_id));
    expect(history.filter((m) => m.info.role === "user")).toHaveLength(2);
  });

  it("aborting the parent aborts its running children", async () => {
    const model = routedModel((call) => {
      if (systemOf(call).includes("general-purpose")) return { text: "slow ".repeat(400) };
      return { toolCalls: [{ name: "task", input: { description: "slow work", prompt: "work slowly", subagent: "general" } }] };
    });
    const agent = createAgent({ model, cwd, dataDir: join(cwd, ".data"), agents: { general: { model: mockModel([{ text: "slow ".repeat(2000) }], { chunkSize: 2, delayMs: 1 }) } } });
    const session = await agent.sessions.create();
    const run = agent.prompt(session.id, "delegate");
    for await (const event of run) {
      if (event.sessionID !== session.id && event.type === "message.part.updated" && event.delta) {
        run.abort();
        break;
      }
    }
    const { info } = await run;
    expect(info.finish).toBe("aborted");
    const children = (await agent.sessions.list({ parentID: session.id })).sessions;
    expect(children).toHaveLength(1);
    const childMessages = await agent.sessions.messages(children[0]!.id);
    expect(childMessages.at(-1)!.info).toMatchObject({ finish: "aborted" });
  });

  it("lists only the subagents the calling agent may start; subagents do not start tasks by default", async () => {
    const model = mockModel([{ text: "ok" }, { text: "ok" }]);
    const agent = createAgent({ model, cwd, dataDir: join(cwd, ".data"), permission: { task: { "*": "allow", general: "deny" } } });
    const s = await agent.sessions.create();
    await agent.prompt(s.id, "hi");
    const task = model.calls[0]!.tools?.find((t) => t.name === "task");
    expect(task?.type === "function" && task.description).toContain("- explore:");
    expect(task?.type === "function" && task.description).not.toContain("- general:");
    // Without host rules for it, a subagent is not offered the task tool.
    const plain = mockModel([{ text: "ok" }]);
    const second = createAgent({ model: plain, cwd, dataDir: join(cwd, ".data") });
    const s2 = await second.sessions.create();
    await second.prompt(s2.id, "hi", { agent: "general" });
    expect(plain.calls[0]!.tools?.map((t) => t.name)).not.toContain("task");
  });
});

describe("prompt input references", () => {
  it("@file attaches the file as read; @dir/ a listing; @agent a hint; a missing one is reported", async () => {
    mkdirSync(join(cwd, "src"));
    writeFileSync(join(cwd, "src", "a.ts"), "export const a = 1;\n");
    const model = mockModel([{ text: "seen" }]);
    const agent = createAgent({ model, cwd, dataDir: join(cwd, ".data"), tools: [echoTool()] });
    const s = await agent.sessions.create();
    await agent.prompt(s.id, "Look at @notes.txt and @src/ then ask @explore about @missing.ts, mail me at me@example.com.");
    const [user] = await agent.sessions.messages(s.id);
    const parts = user!.parts;
    expect(parts.filter((p) => p.type === "agent").map((p) => p.type === "agent" && p.name)).toEqual(["explore"]);
    expect(parts.some((p) => p.type === "file" && p.filename === "notes.txt")).toBe(true);
    const synthetic = parts.flatMap((p) => (p.type === "text" && p.synthetic ? [p.text] : [])).join("\n");
    expect(synthetic).toContain("Called the read tool");
    expect(synthetic).toContain("alpha");
    expect(synthetic).toContain("a.ts");
    expect(synthetic).toContain("task tool");
    expect(synthetic).toContain("@missing.ts matches no file");
    expect(synthetic).not.toContain("example.com");
    const sent = JSON.stringify(model.calls[0]!.prompt);
    expect(sent).toContain("alpha");
  });

  it("an @image reference becomes a file part the model sees", async () => {
    const png = Buffer.from("89504e470d0a1a0a0000000d4948445200000001000000010806000000", "hex");
    writeFileSync(join(cwd, "pic.png"), png);
    const model = mockModel([{ text: "an image" }]);
    const agent = createAgent({ model, cwd, dataDir: join(cwd, ".data") });
    const s = await agent.sessions.create();
    await agent.prompt(s.id, "what is in @pic.png");
    const user = model.calls[0]!.prompt.find((m) => m.role === "user");
    expect(JSON.stringify(user)).toContain("image/png");
  });
});

describe("system prompt", () => {
  it("has the base prompt, the agent's prompt, instruction files up to the repository root and host instructions; the environment rides in the prompt", async () => {
    mkdirSync(join(cwd, ".git"));
    writeFileSync(join(cwd, "AGENTS.md"), "Root rule: use tabs.");
    mkdirSync(join(cwd, "pkg"));
    writeFileSync(join(cwd, "pkg", "CLAUDE.md"), "Package rule: no semicolons.");
    writeFileSync(join(cwd, "extra.md"), "Host file rule.");
    const model = mockModel([{ text: "ok" }], { provider: "anthropic.messages", modelId: "claude-x" });
    const agent = createAgent({
      model,
      cwd: join(cwd, "pkg"),
      dataDir: join(cwd, ".data"),
      instructions: "Host instruction.",
      instructionFiles: [join(cwd, "extra.md")],
    });
    const s = await agent.sessions.create();
    await agent.prompt(s.id, "hi", { agent: "plan", system: "Per-prompt instruction." });
    const system = systemOf(model.calls[0]!);
    const order = ["You are Lathe", "plan mode", "Root rule", "Package rule", "Host file rule", "Host instruction.", "Per-prompt instruction."];
    const positions = order.map((s) => system.indexOf(s));
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    // The environment is a note in the prompt's user message, after what the user typed.
    expect(system).not.toContain("<environment>");
    const user = JSON.stringify(model.calls[0]!.prompt.at(-1));
    expect(user.indexOf("hi")).toBeLessThan(user.indexOf("<environment>"));
    expect(user).toContain("Git repository: yes");
    expect(system).toContain("Think through multi-step work"); // the Anthropic family's base prompt
  });
});

describe("hooks", () => {
  it("each hook point changes behaviour", async () => {
    const model = mockModel([
      { toolCalls: [{ name: "echo", input: { text: "original" } }, { name: "echo", input: { text: "blocked" } }] },
      { text: "the answer" },
    ]);
    const log: string[] = [];
    const agent = createAgent({
      model,
      cwd,
      dataDir: join(cwd, ".data"),
      tools: [echoTool(log)],
      temperature: 0.1,
      hooks: {
        "chat.message": (_input, output) => {
          for (const part of output.parts) if (part.type === "text") part.text = part.text.toUpperCase();
        },
        "chat.params": [
          (_input, output) => {
            output.temperature = 0.7;
          },
          (_input, output) => {
            output.headers["x-trace"] = "abc";
          },
        ],
        "chat.system": (_input, output) => {
          output.system.push("HOOKED SYSTEM");
        },
        "tool.execute.before": (input, output) => {
          if (output.args.text === "blocked") output.block = "Blocked by policy.";
          else output.args = { text: `${String(output.args.text)}+changed` };
          void input;
        },
        "tool.execute.after": (_input, output) => {
          output.output += " [audited]";
        },
        "text.complete": (_input, output) => {
          output.text = output.text.replace("answer", "ANSWER");
        },
      },
    });
    const s = await agent.sessions.create();
    const { parts } = await agent.prompt(s.id, "hello");
    const call = model.calls[0]!;
    expect(JSON.stringify(call.prompt)).toContain("HELLO");
    expect(call.temperature).toBe(0.7);
    expect(call.headers?.["x-trace"]).toBe("abc");
    expect(systemOf(call)).toContain("HOOKED SYSTEM");
    expect(log).toEqual(["original+changed"]);
    const tools = parts.flatMap((p) => (p.type === "tool" ? [p.state] : []));
    expect(tools[0]).toMatchObject({ status: "completed", output: "echo: original+changed [audited]" });
    expect(tools[1]).toMatchObject({ status: "error", error: "Blocked by policy." });
    expect(parts.find((p) => p.type === "text")).toMatchObject({ text: "the ANSWER" });
    const stored = await agent.sessions.messages(s.id);
    expect(stored[1]!.parts.find((p) => p.type === "text")).toMatchObject({ text: "the ANSWER" });
  });

  it("a hook that throws ends the turn with an error naming the hook", async () => {
    const model = mockModel([{ toolCalls: [{ name: "echo", input: { text: "x" } }] }, { text: "unused" }]);
    const agent = createAgent({
      model,
      cwd,
      dataDir: join(cwd, ".data"),
      tools: [echoTool()],
      hooks: {
        "tool.execute.after": [
          () => {},
          () => {
            throw new Error("audit service down");
          },
        ],
      },
    });
    const s = await agent.sessions.create();
    const { info } = await agent.prompt(s.id, "go");
    expect(info.error).toMatchObject({ name: "HookError" });
    expect(info.error?.message).toContain('"tool.execute.after" hook #2');
    expect(info.error?.message).toContain("audit service down");
    expect(model.remaining).toBe(1);
    expect(HookError).toBeDefined();
  });
});

describe("agent selection", () => {
  it("rejects an unknown agent name up front and lets hosts add agents", async () => {
    const model = mockModel([{ text: "reviewed" }]);
    const agent = createAgent({
      model,
      cwd,
      dataDir: join(cwd, ".data"),
      agents: { reviewer: { description: "Reviews diffs.", mode: "primary", prompt: "You review code.", tools: { bash: false } } },
    });
    const s = await agent.sessions.create();
    expect(() => agent.prompt(s.id, "hi", { agent: "nobody" })).toThrow(/no agent named "nobody"/);
    const { info } = await agent.prompt(s.id, "review", { agent: "reviewer" });
    expect(info.agent).toBe("reviewer");
    expect(systemOf(model.calls[0]!)).toContain("You review code.");
    expect(model.calls[0]!.tools?.map((t) => t.name)).not.toContain("bash");
    expect(agent.agents().map((a) => a.name)).toEqual(["build", "plan", "explore", "general", "reviewer"]);
  });
});
