// Commands sent to a busy session (`agent.command(..., { whileBusy })`): rejected by default, queued
// (stored at once, expanded when their own turn comes) or steered (expanded now, under the running
// turn's agent, and taken by its next request). Commands that need a turn of their own are not steered.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LanguageModelV4CallOptions } from "@ai-sdk/provider";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AgentClosedError, createAgent, InvalidInputError, SessionBusyError, type AgentOptions, type PermissionRequest } from "@lathe/core";
import { mockModel, type MockTurn } from "@lathe/mock";
import { SqliteStorage } from "@lathe/storage";
import { put } from "./helpers.js";

let root: string;
let cwd: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "lathe-steer-commands-"));
  cwd = join(root, "repo");
  mkdirSync(join(cwd, ".git"), { recursive: true });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function agentWith(options: AgentOptions) {
  return createAgent({ cwd, configDir: false, snapshots: false, dataDir: join(root, "data"), ...options });
}

/** The first text of the newest user message of a request (what the user typed; the environment note follows). */
function lastUser(call: LanguageModelV4CallOptions): string | undefined {
  const last = call.prompt.at(-1);
  if (last?.role !== "user") return undefined;
  const first = last.content.find((p) => p.type === "text");
  return first?.type === "text" ? first.text : undefined;
}

function gate(): { open: () => void; wait: Promise<void> } {
  let open!: () => void;
  const wait = new Promise<void>((resolve) => (open = resolve));
  return { open, wait };
}

const answer = (call: LanguageModelV4CallOptions): MockTurn => ({ text: `answer to ${lastUser(call)}` });

describe("agent.command on a busy session", () => {
  it("rejects by default, like a prompt", async () => {
    put(join(cwd, ".lathe/commands/greet.md"), "Greet $1");
    const held = gate();
    const agent = agentWith({ model: mockModel([async () => (await held.wait, { text: "done" })]) });
    const id = (await agent.sessions.create()).id;
    const first = agent.prompt(id, "long job");
    await first.stored;
    expect(() => agent.command(id, "greet", "Ann")).toThrow(SessionBusyError);
    expect(() => agent.command(id, "greet", "Ann", { whileBusy: "queue", messageID: "msg_1" })).toThrow(InvalidInputError);
    held.open();
    await first;
    await agent.close();
  });

  it("queued: stored at once as typed, expanded (shell block run) only when its own turn comes, after the running one", async () => {
    put(join(cwd, ".lathe/commands/status.md"), "Status of $1: !`echo state-of-$1`");
    const held = gate();
    const asked: PermissionRequest[] = [];
    const storage = new SqliteStorage(join(root, "queued.db"));
    const model = mockModel([async () => (await held.wait, { text: "first done" }), answer]);
    const agent = agentWith({
      model,
      storage,
      permission: { bash: "ask" },
      approve: async (request) => {
        asked.push(request);
        return "once";
      },
    });
    const id = (await agent.sessions.create()).id;
    const first = agent.prompt(id, "long job");
    await first.stored;
    const queued = agent.command(id, "/status", ["api"], { whileBusy: "queue" });
    await queued.stored;
    // Stored as the user typed it; its shell block has not run yet.
    expect((await storage.getSession(id))?.queue).toMatchObject([{ input: [{ type: "text", text: "/status api" }], command: { name: "/status", args: ["api"] } }]);
    expect(asked).toHaveLength(0);
    held.open();
    const result = await queued;
    expect(asked.map((r) => r.permission)).toEqual(["bash"]);
    expect(model.calls.map(lastUser)).toEqual(["long job", "Status of api: state-of-api"]);
    expect(result.parts.find((p) => p.type === "text")).toMatchObject({ text: "answer to Status of api: state-of-api" });
    expect((await first).info.id).not.toBe(result.info.id);
    expect((await storage.getSession(id))?.queue).toBeUndefined();
    await agent.close();
  });

  it("a queued command survives the agent closing: the next agent's resume expands and answers it", async () => {
    put(join(cwd, ".lathe/commands/greet.md"), "Greet $1 warmly");
    const storage = new SqliteStorage(join(root, "closed.db"));
    const agent = agentWith({ model: mockModel([() => new Promise<MockTurn>(() => {})]), storage });
    const id = (await agent.sessions.create()).id;
    const first = agent.prompt(id, "long job");
    await first.stored;
    const queued = agent.command(id, "greet", "Ann", { whileBusy: "queue" });
    await queued.stored;
    await agent.close();
    await expect(queued).rejects.toBeInstanceOf(AgentClosedError);

    const model = mockModel([answer]);
    const again = agentWith({ model, storage });
    const result = await again.resume(id);
    expect(model.calls.map(lastUser)).toEqual(["Greet Ann warmly"]);
    expect(result.parts.find((p) => p.type === "text")).toMatchObject({ text: "answer to Greet Ann warmly" });
    expect((await storage.getSession(id))?.queue).toBeUndefined();
    await again.close();
  });

  it("a queued command that no longer exists when its turn comes fails alone and leaves the queue; the next one runs", async () => {
    put(join(cwd, ".lathe/commands/gone.md"), "Never sent");
    const held = gate();
    const storage = new SqliteStorage(join(root, "gone.db"));
    const model = mockModel([async () => (await held.wait, { text: "first done" }), answer]);
    const agent = agentWith({ model, storage });
    const id = (await agent.sessions.create()).id;
    const first = agent.prompt(id, "long job");
    await first.stored;
    const gone = agent.command(id, "nosuch", undefined, { whileBusy: "queue" });
    const next = agent.prompt(id, "after it", { whileBusy: "queue" });
    await Promise.all([gone.stored, next.stored]);
    held.open();
    await expect(gone).rejects.toBeInstanceOf(InvalidInputError);
    expect((await next).parts.find((p) => p.type === "text")).toMatchObject({ text: "answer to after it" });
    expect(model.calls.map(lastUser)).toEqual(["long job", "after it"]);
    expect((await storage.getSession(id))?.queue).toBeUndefined();
    await agent.close();
  });

  it("steered: expanded at once under the running turn's agent and carried by the turn's next request", async () => {
    put(join(cwd, ".lathe/commands/hint.md"), "Hint: look at $1 (!`echo checked-$1`)");
    let agent!: ReturnType<typeof agentWith>;
    let id = "";
    const asked: PermissionRequest[] = [];
    let steered: ReturnType<typeof agent.command> | undefined;
    const model = mockModel([
      async () => {
        steered = agent.command(id, "hint", "b.ts", { whileBusy: "steer" });
        await steered.stored;
        return { text: "looking", toolCalls: [{ id: "call_1", name: "read", input: { filePath: join(cwd, "a.ts") } }] };
      },
      () => ({ text: "done with b.ts" }),
    ]);
    put(join(cwd, "a.ts"), "export const a = 1;\n");
    // Build runs shell blocks unasked; the plan agent, whose turn the message joins, asks.
    agent = agentWith({
      model,
      permission: { bash: "allow" },
      agents: { plan: { permission: { bash: "ask" } } },
      approve: async (request) => {
        asked.push(request);
        return "once";
      },
    });
    id = (await agent.sessions.create()).id;
    const run = agent.prompt(id, "fix a.ts", { agent: "plan" });
    const result = await run;
    expect(await steered!).toMatchObject({ info: { id: result.info.id } });
    // The shell block was asked under the plan agent's rules.
    expect(asked.filter((r) => r.permission === "bash").map((r) => r.patterns)).toEqual([["echo checked-b.ts"]]);
    expect(lastUser(model.calls[1]!)).toBe("Hint: look at b.ts (checked-b.ts)");
    const history = await agent.sessions.messages(id);
    expect(history.map((m) => m.info.role)).toEqual(["user", "assistant", "user", "assistant"]);
    await agent.close();
  });

  it("a subtask command, or one naming its own agent or model, is not steered: the run rejects and nothing is stored", async () => {
    put(join(cwd, ".lathe/commands/explain.md"), "---\nsubtask: true\n---\nExplain $1");
    put(join(cwd, ".lathe/commands/small.md"), "---\nmodel: small\n---\nSummarise $1");
    put(join(cwd, ".lathe/commands/planner.md"), "---\nagent: plan\n---\nPlan $1");
    const held = gate();
    const small = mockModel([]);
    const agent = agentWith({ model: mockModel([async () => (await held.wait, { text: "done" })]), trust: "trusted", commands: { models: { small } } });
    const id = (await agent.sessions.create()).id;
    const first = agent.prompt(id, "long job");
    await first.stored;
    for (const [name, why] of [["explain", /subtask/], ["small", /own model/], ["planner", /own agent/]] as const) {
      const run = agent.command(id, name, "x", { whileBusy: "steer" });
      await expect(run).rejects.toThrow(why);
      await expect(run).rejects.toBeInstanceOf(InvalidInputError);
    }
    expect(() => agent.command(id, "explain", "x", { whileBusy: "steer", agent: "plan" })).toThrow(InvalidInputError);
    held.open();
    await first;
    expect((await agent.sessions.messages(id)).map((m) => m.info.role)).toEqual(["user", "assistant"]);
    await agent.close();
  });
});
