import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAgent, InvalidInputError, type AgentEventOf, type PermissionMode, type PermissionRequest } from "@lathe/core";
import { mockModel, type MockToolCall } from "@lathe/mock";
import type { LanguageModelV4CallOptions } from "@ai-sdk/provider";

let root: string;
let cwd: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "lathe-modes-"));
  cwd = join(root, "repo");
  mkdirSync(join(cwd, ".git"), { recursive: true });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

// The build agent asks before edits and shell commands; editing .env and `rm` are denied.
const RULES = { edit: { "*": "ask", "*.env": "deny" }, bash: { "*": "ask", "rm *": "deny" } } as const;

function calls(): MockToolCall[] {
  return [
    { id: "edit-inside", name: "write", input: { path: "a.txt", content: "a" } },
    { id: "edit-env", name: "write", input: { path: ".env", content: "SECRET=1" } },
    { id: "shell", name: "bash", input: { command: "echo hi" } },
    { id: "shell-denied", name: "bash", input: { command: "rm -rf build" } },
    { id: "edit-outside", name: "write", input: { path: join(root, "outside", "b.txt"), content: "b" } },
    { id: "plan-file", name: "write", input: { path: ".lathe/plans/p.md", content: "# plan" } },
  ];
}

/** Runs the table's tool calls in one step under a mode; says per call what happened: which asks, and how it ended. */
async function outcomes(mode: PermissionMode): Promise<Record<string, string>> {
  const asks: PermissionRequest[] = [];
  const model = mockModel([{ toolCalls: calls() }, { text: "done" }]);
  const agent = createAgent({
    model,
    cwd,
    configDir: false,
    snapshots: false,
    dataDir: join(root, "data"),
    agents: { build: { permission: RULES } },
    approve: async (request) => {
      asks.push(request);
      return "once";
    },
  });
  const session = await agent.sessions.create();
  const { parts } = await agent.prompt(session.id, "go", { mode });
  await agent.close();
  const out: Record<string, string> = {};
  for (const part of parts) {
    if (part.type !== "tool") continue;
    const asked = asks.filter((r) => r.tool?.callID === part.callID).map((r) => r.permission);
    const end = part.state.status === "error" ? (part.state.error.includes("denied") ? "denied" : "error") : part.state.status;
    out[part.callID] = [asked.length ? `asked ${asked.join("+")}` : "not asked", end].join(", ");
  }
  return out;
}

describe("permission modes against a table of tool calls", () => {
  it("default: the rules as they are", async () => {
    expect(await outcomes("default")).toEqual({
      "edit-inside": "asked edit, completed",
      "edit-env": "not asked, denied",
      shell: "asked bash, completed",
      "shell-denied": "not asked, denied",
      "edit-outside": "asked external_directory+edit, completed",
      "plan-file": "asked edit, completed",
    });
  });

  it("acceptEdits: edits inside the workspace run without asking; deny still holds", async () => {
    expect(await outcomes("acceptEdits")).toEqual({
      "edit-inside": "not asked, completed",
      "edit-env": "not asked, denied",
      shell: "asked bash, completed",
      "shell-denied": "not asked, denied",
      "edit-outside": "asked external_directory+edit, completed",
      "plan-file": "not asked, completed",
    });
  });

  it("plan: read-only but for plan files; shell commands ask", async () => {
    expect(await outcomes("plan")).toEqual({
      "edit-inside": "not asked, denied",
      "edit-env": "not asked, denied",
      shell: "asked bash, completed",
      "shell-denied": "not asked, denied",
      "edit-outside": "asked external_directory, denied",
      // Plan mode only restricts: the build agent's own rule asks before edits, plan files included.
      "plan-file": "asked edit, completed",
    });
  });

  it("bypass: everything runs without asking, except deny rules and directories outside the workspace", async () => {
    expect(await outcomes("bypass")).toEqual({
      "edit-inside": "not asked, completed",
      "edit-env": "not asked, denied",
      shell: "not asked, completed",
      "shell-denied": "not asked, denied",
      "edit-outside": "asked external_directory, completed",
      "plan-file": "not asked, completed",
    });
  });
});

describe("switching modes", () => {
  it("takes the mode from the prompt, the session, then the agent; records it on each user message and emits it", async () => {
    const model = mockModel([{ text: "1" }, { text: "2" }, { text: "3" }, { text: "4" }]);
    const agent = createAgent({ model, cwd, configDir: false, snapshots: false, dataDir: join(root, "data"), mode: "acceptEdits" });
    const events: AgentEventOf<"session.mode">[] = [];
    agent.on("session.mode", (event) => events.push(event));
    const session = await agent.sessions.create();
    await agent.prompt(session.id, "one");
    await agent.prompt(session.id, "two", { mode: "plan" });
    const updated = await agent.sessions.setMode(session.id, "bypass");
    expect(updated.mode).toBe("bypass");
    expect((await agent.sessions.get(session.id))?.mode).toBe("bypass");
    await agent.prompt(session.id, "three");
    const other = await agent.sessions.create({ mode: "plan" });
    await agent.prompt(other.id, "four");
    const modes = async (id: string) =>
      (await agent.sessions.messages(id)).flatMap((m) => (m.info.role === "user" ? [m.info.mode] : []));
    expect(await modes(session.id)).toEqual(["acceptEdits", "plan", "bypass"]);
    expect(await modes(other.id)).toEqual(["plan"]);
    expect(events.map((e) => [e.sessionID === session.id ? "s" : "o", e.mode, e.messageID !== undefined])).toEqual([
      ["s", "acceptEdits", true],
      ["s", "plan", true],
      ["s", "bypass", false],
      ["s", "bypass", true],
      ["o", "plan", true],
    ]);
    await agent.close();
  });

  it("a mode switched mid-turn decides the turn's next asks", async () => {
    const asks: string[] = [];
    const model = mockModel([
      { toolCalls: [{ name: "bash", input: { command: "echo one" } }] },
      { toolCalls: [{ name: "bash", input: { command: "echo two" } }] },
      { text: "done" },
    ]);
    let agentRef: ReturnType<typeof createAgent> | undefined;
    const agent = createAgent({
      model,
      cwd,
      configDir: false,
      snapshots: false,
      dataDir: join(root, "data"),
      permission: { bash: "ask" },
      approve: async (request) => {
        asks.push(request.patterns.join(" "));
        // The user answers and switches to bypass: the next command is not asked.
        await agentRef!.sessions.setMode(request.sessionID, "bypass");
        return "once";
      },
    });
    agentRef = agent;
    const session = await agent.sessions.create();
    const { info } = await agent.prompt(session.id, "run both");
    expect(info.finish).toBe("stop");
    expect(asks).toEqual(["echo one"]);
    await agent.close();
  });

  it("refuses unknown modes everywhere", async () => {
    expect(() => createAgent({ model: mockModel([]), cwd, mode: "yolo" as never })).toThrow(InvalidInputError);
    const agent = createAgent({ model: mockModel([]), cwd, configDir: false, snapshots: false });
    await expect(agent.sessions.create({ mode: "all" as never })).rejects.toBeInstanceOf(InvalidInputError);
    const session = await agent.sessions.create();
    expect(() => agent.prompt(session.id, "x", { mode: "nope" as never })).toThrow(InvalidInputError);
    await expect(agent.sessions.setMode(session.id, "auto" as never)).rejects.toBeInstanceOf(InvalidInputError);
    await expect(agent.sessions.setMode("ses_missing", "plan")).rejects.toThrow(/ses_missing/);
    await agent.close();
  });
});

describe("plan mode's instructions", () => {
  it("tells the model it is planning, only in plan mode", async () => {
    const model = mockModel([{ text: "a plan" }, { text: "done" }]);
    const agent = createAgent({ model, cwd, configDir: false, snapshots: false, dataDir: join(root, "data") });
    const session = await agent.sessions.create();
    await agent.prompt(session.id, "plan it", { mode: "plan" });
    await agent.prompt(session.id, "do it");
    const system = (i: number) => model.calls[i]!.prompt.filter((m) => m.role === "system").map((m) => m.content).join("\n");
    expect(system(0)).toContain("You are in plan mode");
    expect(system(1)).not.toContain("You are in plan mode");
    await agent.close();
  });
});

describe("subagents and modes", () => {
  for (const [label, options] of [
    ["a plan-mode turn", { mode: "plan" }],
    ["the plan agent, even in bypass mode", { agent: "plan", mode: "bypass" }],
  ] as const) {
    it(`a subagent works under the mode of the turn that started it: ${label}`, async () => {
      const model = mockModel(
        Array.from({ length: 6 }, () => (call: LanguageModelV4CallOptions) => {
          const users = JSON.stringify(call.prompt.filter((m) => m.role === "user"));
          const results = JSON.stringify(call.prompt.filter((m) => m.role === "tool"));
          if (users.includes("write child.txt")) {
            if (results.includes("write")) return { text: "could not write" };
            return { toolCalls: [{ name: "write", input: { path: "child.txt", content: "x" } }] };
          }
          if (results.includes("task_result") || results.includes("subagent")) return { text: "done" };
          return { toolCalls: [{ name: "task", input: { description: "write it", prompt: "write child.txt", subagent: "general" } }] };
        }),
      );
      // The host allows every edit: plan's restriction holds regardless.
      const agent = createAgent({ model, cwd, configDir: false, snapshots: false, dataDir: join(root, "data"), permission: { edit: "allow", task: "allow" } });
      const session = await agent.sessions.create();
      await agent.prompt(session.id, "delegate", options);
      const [child] = (await agent.sessions.list({ parentID: session.id })).sessions;
      const messages = await agent.sessions.messages(child!.id);
      expect(messages[0]!.info.role === "user" && messages[0]!.info.mode).toBe("plan");
      const write = messages.flatMap((m) => m.parts).find((p) => p.type === "tool" && p.tool === "write");
      expect(write?.type === "tool" && write.state.status === "error" ? write.state.error : "").toContain("denied");
      await agent.close();
    });
  }
});
