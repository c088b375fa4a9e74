import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { z } from "zod";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAgent, InvalidInputError, type AgentEvent } from "@lathe/core";
import { mockModel } from "@lathe/mock";
import { defineTool } from "@lathe/tools";
import { echoTool } from "./helpers.js";

let cwd: string;
beforeEach(() => {
  cwd = mkdtempSync(join(tmpdir(), "lathe-review-"));
});
afterEach(() => rmSync(cwd, { recursive: true, force: true }));
const base = () => ({ cwd, dataDir: join(cwd, ".data") });

describe("behaviour fixed after review", () => {
  it("a tool that returns once aborted is recorded as aborted, not completed", async () => {
    const polite = defineTool({
      name: "polite",
      description: "Returns when aborted.",
      parameters: z.object({}),
      execute: (_args, ctx) => new Promise<{ title: string; output: string }>((resolve) => ctx.abort.addEventListener("abort", () => resolve({ title: "stopped", output: "stopped early" }))),
    });
    const agent = createAgent({ ...base(), model: mockModel([{ toolCalls: [{ name: "polite", input: {} }] }, { text: "x" }]), tools: [polite] });
    const s = await agent.sessions.create();
    const run = agent.prompt(s.id, "go");
    for await (const e of run) if (e.type === "message.part.updated" && e.part.type === "tool" && e.part.state.status === "running") run.abort();
    const { parts } = await run;
    expect(parts.find((p) => p.type === "tool")).toMatchObject({ state: { status: "error", error: "aborted" } });
  });

  it("attached local and text files reach the model; the session stays usable", async () => {
    const png = join(cwd, "p.png");
    writeFileSync(png, Buffer.from("89504e470d0a1a0a", "hex"));
    const model = mockModel([{ text: "seen" }, { text: "again" }]);
    // Local files by URL only where the host allows them (a host serving one user on their machine).
    const agent = createAgent({ ...base(), model, tools: [], fileUrls: true });
    const s = await agent.sessions.create();
    const { info } = await agent.prompt(s.id, [
      { type: "text", text: "look" },
      { type: "file", url: pathToFileURL(png).href, mime: "image/png" },
      { type: "file", url: `data:text/plain;base64,${Buffer.from("notes inside").toString("base64")}`, mime: "text/plain", filename: "n.txt" },
    ]);
    expect(info.error).toBeUndefined();
    const sent = JSON.stringify(model.calls[0]!.prompt);
    expect(sent).toContain("image/png");
    expect(sent).toContain("notes inside");
    expect((await agent.prompt(s.id, "again")).info.error).toBeUndefined();
    await expect(agent.prompt(s.id, [{ type: "file", url: pathToFileURL(join(cwd, "missing.png")).href, mime: "image/png" }])).rejects.toBeInstanceOf(InvalidInputError);
  });

  it("tools: [] offers no tools at all", async () => {
    const model = mockModel([{ text: "ok" }]);
    const agent = createAgent({ ...base(), model, tools: [] });
    const s = await agent.sessions.create();
    await agent.prompt(s.id, "hi");
    expect(model.calls[0]!.tools ?? []).toEqual([]);
  });

  it("a listener may start the next prompt from the idle event; a throwing listener silences no other", async () => {
    const model = mockModel([{ text: "one" }, { text: "two" }]);
    const agent = createAgent({ ...base(), model, tools: [] });
    const s = await agent.sessions.create();
    const seen: string[] = [];
    let next: Promise<unknown> | undefined;
    agent.on("message.part.updated", () => {
      throw new Error("listener bug");
    });
    agent.on("message.part.updated", (e) => seen.push(e.part.type));
    agent.on("session.status", (e) => {
      if (e.status.type === "idle" && !next) next = Promise.resolve(agent.prompt(s.id, "second"));
    });
    await agent.prompt(s.id, "first");
    await next;
    expect(seen.filter((t) => t === "text").length).toBeGreaterThan(2);
    expect((await agent.sessions.messages(s.id)).length).toBe(4);
  });

  it("an approve callback that throws settles its request: replied, not left pending", async () => {
    const guarded = defineTool({
      name: "guarded",
      description: "Asks first.",
      parameters: z.object({}),
      async execute(_a, ctx) {
        await ctx.ask({ permission: "guarded", patterns: ["*"] });
        return { title: "ran", output: "ran" };
      },
    });
    const events: AgentEvent[] = [];
    const agent = createAgent({
      ...base(),
      model: mockModel([{ toolCalls: [{ name: "guarded", input: {} }] }, { text: "ok" }]),
      tools: [guarded],
      permission: { guarded: "ask" },
      approve: async () => {
        throw new Error("ui gone");
      },
    });
    agent.on("permission.replied", (e) => events.push(e));
    const s = await agent.sessions.create();
    const { parts } = await agent.prompt(s.id, "go");
    expect(parts.find((p) => p.type === "tool")).toMatchObject({ state: { status: "error" } });
    expect(events).toHaveLength(1);
    expect(await agent.permissions.pending(s.id)).toEqual([]);
    expect((await agent.sessions.get(s.id))?.permission?.pending).toEqual([]);
  });

  it("a throwing chat.message hook ends the turn with an error, and the run resolves", async () => {
    const agent = createAgent({
      ...base(),
      model: mockModel([{ text: "never" }]),
      tools: [],
      hooks: {
        "chat.message": () => {
          throw new Error("policy service down");
        },
      },
    });
    const s = await agent.sessions.create();
    const errors: AgentEvent[] = [];
    agent.on("session.error", (e) => errors.push(e));
    const { info } = await agent.prompt(s.id, "hi");
    expect(info.error?.name).toBe("HookError");
    expect(info.error?.message).toContain('"chat.message"');
    expect(errors).toHaveLength(1);
  });

  it("@references go through the permission rules (reading .env asks)", async () => {
    writeFileSync(join(cwd, ".env"), "SECRET=1\n");
    const asked: string[] = [];
    const model = mockModel([{ text: "ok" }]);
    const agent = createAgent({
      ...base(),
      model,
      approve: async (request) => {
        asked.push(`${request.permission}:${request.patterns.join()}`);
        return { reject: "no secrets" };
      },
    });
    const s = await agent.sessions.create();
    await agent.prompt(s.id, "what is in @.env");
    expect(asked).toEqual(["read:.env"]);
    expect(JSON.stringify(model.calls[0]!.prompt)).not.toContain("SECRET");
  });

  it("the plan agent is asked before shell commands", async () => {
    const asked: string[] = [];
    const agent = createAgent({
      ...base(),
      model: mockModel([{ toolCalls: [{ name: "bash", input: { command: "touch hacked.txt" } }] }, { text: "ok" }]),
      approve: async (request) => {
        asked.push(request.permission);
        return "reject";
      },
    });
    const s = await agent.sessions.create();
    const { info } = await agent.prompt(s.id, "go", { agent: "plan" });
    expect(asked).toEqual(["bash"]);
    expect(info.error?.name).toBe("RejectedError");
  });

  it("a fork of a reverted session leaves the reverted messages out; removing a session removes its task sessions", async () => {
    const model = mockModel([
      { toolCalls: [{ name: "write", input: { path: "a.txt", content: "a\n" } }] },
      { text: "wrote a" },
      { toolCalls: [{ name: "write", input: { path: "c.txt", content: "c\n" } }] },
      { text: "wrote c" },
    ]);
    const agent = createAgent({ ...base(), model });
    const s = await agent.sessions.create();
    await agent.prompt(s.id, "write a");
    await agent.prompt(s.id, "write c");
    const users = (await agent.sessions.messages(s.id)).filter((m) => m.info.role === "user");
    await agent.sessions.revert(s.id, { messageID: users[1]!.info.id });
    const fork = await agent.sessions.fork(s.id);
    expect(fork.kind).toBe("fork");
    expect(await agent.sessions.messages(fork.id)).toHaveLength(2);
    await expect(agent.sessions.diff(s.id, { messageID: "msg_nope" })).rejects.toBeInstanceOf(InvalidInputError);

    const task = await agent.sessions.create({ parentID: s.id, kind: "task" });
    await agent.sessions.remove(s.id);
    expect(await agent.sessions.get(task.id)).toBeUndefined();
    expect(await agent.sessions.get(fork.id)).toBeDefined();
  });

  it("a custom tool's huge output is capped like the built-in tools'", async () => {
    const big = defineTool({
      name: "big",
      description: "Returns a lot.",
      parameters: z.object({}),
      async execute() {
        return { title: "big", output: "x".repeat(500_000) };
      },
    });
    const model = mockModel([{ toolCalls: [{ name: "big", input: {} }] }, { text: "ok" }]);
    const agent = createAgent({ ...base(), model, tools: [big, echoTool()] });
    const s = await agent.sessions.create();
    const { parts } = await agent.prompt(s.id, "go");
    const tool = parts.find((p) => p.type === "tool");
    const output = tool?.type === "tool" && tool.state.status === "completed" ? tool.state.output : "";
    expect(output.length).toBeLessThan(60_000);
    expect(output).toMatch(/truncated|cut/i);
  });
});
