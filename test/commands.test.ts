import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { put } from "./helpers.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAgent, InvalidInputError, RejectedError, type AgentOptions, type PermissionRequest } from "@lathe/core";
import { mockModel } from "@lathe/mock";
import { builtinTools, createBashTool } from "@lathe/tools";
import type { LanguageModelV4CallOptions } from "@ai-sdk/provider";

let root: string;
let cwd: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "lathe-commands-e2e-"));
  cwd = join(root, "repo");
  mkdirSync(join(cwd, ".git"), { recursive: true });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const userText = (call: LanguageModelV4CallOptions) => JSON.stringify(call.prompt.filter((m) => m.role === "user"));

function agentWith(options: AgentOptions) {
  options.cwd = cwd;
  options.configDir = false;
  options.snapshots = false;
  options.dataDir = join(root, "data");
  return createAgent(options);
}

describe("agent.command", () => {
  it("expands arguments, @file references and an approved shell block, then answers", async () => {
    put(join(cwd, "notes.md"), "NOTES-CONTENT\n");
    put(join(cwd, ".lathe/commands/review.md"), "---\ndescription: Review a file\n---\nReview $1 ($2) in light of @notes.md.\nStatus: !`echo status-$1`\nAll: $ARGUMENTS\n");
    const asked: PermissionRequest[] = [];
    const model = mockModel([{ text: "Reviewed." }]);
    const agent = agentWith({
      model,
      permission: { bash: "ask" },
      approve: async (request) => {
        asked.push(request);
        return "once";
      },
    });
    const session = await agent.sessions.create();
    const { info } = await agent.command(session.id, "review", 'src/a.ts "two words"');
    expect(info.finish).toBe("stop");
    const text = userText(model.calls[0]!);
    expect(text).toContain("Review src/a.ts (two words) in light of @notes.md.");
    expect(text).toContain("Status: status-src/a.ts");
    expect(text).toContain('All: src/a.ts \\"two words\\"');
    expect(text).toContain("NOTES-CONTENT");
    expect(asked.map((r) => [r.permission, r.patterns])).toEqual([["bash", ["echo status-src/a.ts"]]]);
    expect((await agent.commands.list()).map((c) => [c.name, c.description])).toEqual([["review", "Review a file"]]);
    await agent.close();
  });

  it("a rejected shell block stops the command before anything is stored", async () => {
    put(join(cwd, ".lathe/commands/deploy.md"), "Deploy: !`echo deploying`");
    const model = mockModel([]);
    const agent = agentWith({ model, permission: { bash: "ask" }, approve: async () => "reject" });
    const session = await agent.sessions.create();
    await expect(agent.command(session.id, "deploy")).rejects.toBeInstanceOf(RejectedError);
    expect(await agent.sessions.messages(session.id)).toEqual([]);
    expect(model.calls).toHaveLength(0);
    expect(agent.isBusy(session.id)).toBe(false);
    await agent.close();
  });

  it("a shell block that hangs is stopped at the bash tool's timeout and the command goes on", async () => {
    put(join(cwd, ".lathe/commands/slow.md"), "Output: !`sleep 30`");
    const model = mockModel([{ text: "ok" }]);
    const tools = [...builtinTools().filter((t) => t.name !== "bash"), createBashTool({ defaultTimeoutMs: 300, killGraceMs: 100 })];
    const agent = agentWith({ model, tools });
    const session = await agent.sessions.create();
    const started = Date.now();
    await agent.command(session.id, "slow");
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(userText(model.calls[0]!)).toContain("timed out after 300 ms");
    await agent.close();
  });

  it("never substitutes twice: $ sequences and shell blocks in arguments stay text", async () => {
    put(join(cwd, ".lathe/commands/echo.md"), "First: $1 | All: $ARGUMENTS | Shell: !`echo $1`");
    const model = mockModel([{ text: "ok" }]);
    const agent = agentWith({ model });
    const session = await agent.sessions.create();
    const pwned = join(root, "pwned");
    await agent.command(session.id, "echo", ["$2 $ARGUMENTS", `!\`touch ${pwned}\``]);
    const text = userText(model.calls[0]!);
    expect(text).toContain("First: $2 $ARGUMENTS | All: $2 $ARGUMENTS !`touch");
    expect(text).toContain("Shell: $2 $ARGUMENTS");
    expect(existsSync(pwned)).toBe(false);
    await agent.close();
  });

  it("references that refer to each other are read once each, without looping", async () => {
    put(join(cwd, "a.md"), "A-TEXT see @b.md and @a.md\n");
    put(join(cwd, "b.md"), "B-TEXT see @a.md\n");
    put(join(cwd, ".lathe/commands/loop.md"), "Read @a.md and @b.md and @a.md again");
    const model = mockModel([{ text: "ok" }]);
    const agent = agentWith({ model });
    const session = await agent.sessions.create();
    await agent.command(session.id, "loop");
    const [message] = (await agent.sessions.messages(session.id)).filter((m) => m.info.role === "user");
    const files = message!.parts.filter((p) => p.type === "file").map((p) => (p.type === "file" ? p.filename : ""));
    expect(files).toEqual(["a.md", "b.md"]);
    await agent.close();
  });

  it("refuses unknown commands and names with path separators", async () => {
    put(join(cwd, ".lathe/commands/ok.md"), "ok");
    const agent = agentWith({ model: mockModel([]) });
    const session = await agent.sessions.create();
    await expect(agent.command(session.id, "../ok")).rejects.toThrow(/path separator/);
    await expect(agent.command(session.id, "/etc/ok")).rejects.toThrow(/path separator/);
    await expect(agent.command(session.id, "a\\ok")).rejects.toThrow(/path separator/);
    await expect(agent.command(session.id, "nope")).rejects.toBeInstanceOf(InvalidInputError);
    await agent.close();
  });

  it("runs with the command's agent (in a trusted workspace) and the model its front matter names", async () => {
    put(join(cwd, ".lathe/commands/plan-it.md"), "---\nagent: plan\nmodel: small\n---\nPlan $ARGUMENTS");
    const main = mockModel([]);
    const small = mockModel([{ text: "planned" }]);
    const agent = agentWith({ model: main, trust: "trusted", commands: { models: { small } } });
    const session = await agent.sessions.create();
    const { info } = await agent.command(session.id, "plan-it", "the refactor");
    expect(info.agent).toBe("plan");
    expect(small.calls).toHaveLength(1);
    expect(main.calls).toHaveLength(0);
    expect(userText(small.calls[0]!)).toContain("Plan the refactor");
    await agent.close();
  });

  it("a subtask command runs as a subagent in a child session and its answer comes back as a task result", async () => {
    put(join(cwd, ".lathe/commands/explain.md"), "---\ndescription: Explain code\nsubtask: true\nagent: explore\n---\nExplain $1");
    const model = mockModel(
      Array.from({ length: 4 }, () => (call: LanguageModelV4CallOptions) => {
        const system = call.prompt.filter((m) => m.role === "system").map((m) => m.content).join("\n");
        if (system.includes("read-only search agent")) return { text: `explained ${userText(call).includes("Explain src/x.ts") ? "x" : "?"}` };
        return { text: "The explore agent explained it." };
      }),
    );
    const agent = agentWith({ model, trust: "trusted" });
    const session = await agent.sessions.create();
    const { info, parts } = await agent.command(session.id, "explain", "src/x.ts");
    expect(info.error).toBeUndefined();
    const task = parts.find((p) => p.type === "tool" && p.tool === "task");
    expect(task?.type === "tool" && task.state.status === "completed" ? task.state.output : "").toContain("explained x");
    const children = await agent.sessions.list({ parentID: session.id });
    expect(children.sessions.map((s) => s.kind)).toEqual(["task"]);
    const user = (await agent.sessions.messages(session.id))[0]!;
    expect(user.parts.map((p) => p.type)).toEqual(["text", "subtask"]);
    await agent.close();
  });

  it("host-defined commands are listed and run", async () => {
    const model = mockModel([{ text: "hi" }]);
    const agent = agentWith({ model, commands: { define: { greet: { template: "Greet $1", description: "Greets" } } } });
    const session = await agent.sessions.create();
    await agent.command(session.id, "/greet", "Ada");
    expect(userText(model.calls[0]!)).toContain("Greet Ada");
    expect((await agent.commands.list()).map((c) => c.name)).toEqual(["greet"]);
    await agent.close();
  });
});
