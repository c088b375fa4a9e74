import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { createAgent, NotFoundError, NothingToResumeError, type AgentEvent } from "@lathe/core";
import { mockModel } from "@lathe/mock";
import { SqliteStorage } from "@lathe/storage";
import { MemoryStorage } from "@lathe/storage";
import { echoTool } from "./helpers.js";
import { deployTool } from "./fixtures/guarded-tool.js";

const deployTurn = (target: string, id?: string) => ({ toolCalls: [{ name: "deploy", input: { target }, ...(id ? { id } : {}) }] });

describe("permissions in the loop", () => {
  it("a deny rule becomes the tool's error result naming the rule; the loop goes on", async () => {
    const log: string[] = [];
    const model = mockModel([deployTurn("prod/api"), { text: "I may not deploy to prod." }]);
    const agent = createAgent({ model, tools: [deployTool(log)], permission: { deploy: { "*": "allow", "prod/*": "deny" } } });
    const s = await agent.sessions.create();
    const { info, parts } = await agent.prompt(s.id, "deploy");
    expect(log).toEqual([]);
    expect(info.finish).toBe("stop");
    const tool = parts.find((p) => p.type === "tool");
    expect(tool?.type === "tool" && tool.state.status === "error" && tool.state.error).toContain('"prod/*"');
  });

  it("waits for the host without an approve callback: asked event, pending list, reply from elsewhere", async () => {
    const log: string[] = [];
    const model = mockModel([deployTurn("staging/web"), { text: "Deployed." }]);
    const agent = createAgent({ model, tools: [deployTool(log)], permission: { deploy: "ask" } });
    const s = await agent.sessions.create();
    const asked = new Promise<AgentEvent>((resolve) => agent.once("permission.asked", resolve));
    const run = agent.prompt(s.id, "deploy");
    const event = await asked;
    expect(event.type === "permission.asked" && event.request).toMatchObject({ permission: "deploy", patterns: ["staging/web"], tool: { callID: expect.any(String) } });
    const pending = await agent.permissions.pending(s.id);
    expect(pending).toHaveLength(1);
    // Stored with the session while it waits.
    expect((await agent.sessions.get(s.id))?.permission?.pending).toHaveLength(1);
    await agent.permissions.reply(pending[0]!.id, "once");
    const { info } = await run;
    expect(info.finish).toBe("stop");
    expect(log).toEqual(["staging/web"]);
    expect((await agent.sessions.get(s.id))?.permission?.pending).toEqual([]);
    await expect(agent.permissions.reply(pending[0]!.id, "once")).rejects.toBeInstanceOf(NotFoundError);
  });

  it("an always answer is remembered with the session, across agent instances", async () => {
    const storage = new MemoryStorage();
    const asked: string[] = [];
    const log: string[] = [];
    const first = createAgent({
      model: mockModel([deployTurn("staging/web"), deployTurn("staging/db"), { text: "done" }]),
      storage,
      tools: [deployTool(log)],
      permission: { deploy: "ask" },
      approve: async (request) => {
        asked.push(request.patterns.join());
        return "always";
      },
    });
    const s = await first.sessions.create();
    await first.prompt(s.id, "deploy both");
    expect(asked).toEqual(["staging/web"]);
    expect(log).toEqual(["staging/web", "staging/db"]);
    expect((await storage.getSession(s.id))?.permission?.approved).toEqual([{ permission: "deploy", pattern: "staging/*", action: "allow" }]);
    const second = createAgent({
      model: mockModel([deployTurn("staging/cache"), { text: "done" }]),
      storage,
      tools: [deployTool(log)],
      permission: { deploy: "ask" },
      approve: async () => {
        throw new Error("must not be asked");
      },
    });
    const { info } = await second.prompt(s.id, "deploy cache");
    expect(info.error).toBeUndefined();
    expect(log.at(-1)).toBe("staging/cache");
  });

  it("a plain rejection stops the turn", async () => {
    const model = mockModel([deployTurn("prod/api"), { text: "unused" }]);
    const agent = createAgent({ model, tools: [deployTool()], permission: { deploy: "ask" }, approve: async () => "reject" });
    const s = await agent.sessions.create();
    const { parts } = await agent.prompt(s.id, "deploy");
    expect(parts.find((p) => p.type === "tool")).toMatchObject({ state: { status: "error" } });
    expect(model.remaining).toBe(1);
  });

  it("aborting while a request waits rejects it and ends the run as aborted", async () => {
    const agent = createAgent({ model: mockModel([deployTurn("prod/api")]), tools: [deployTool()], permission: { deploy: "ask" } });
    const s = await agent.sessions.create();
    const replied: AgentEvent[] = [];
    agent.on("permission.replied", (e) => replied.push(e));
    agent.once("permission.asked", () => agent.abort(s.id));
    const { info } = await agent.prompt(s.id, "deploy");
    expect(info.finish).toBe("aborted");
    expect(replied).toMatchObject([{ reply: "reject" }]);
    expect(await agent.permissions.pending(s.id)).toEqual([]);
  });

  it("does not offer tools whose permission is denied outright", async () => {
    const model = mockModel([{ text: "ok" }]);
    const agent = createAgent({ model, tools: [deployTool(), echoTool()], permission: { deploy: "deny" } });
    const s = await agent.sessions.create();
    await agent.prompt(s.id, "hi");
    const offered = model.calls[0]!.tools?.map((t) => t.name);
    expect(offered).toContain("echo");
    expect(offered).not.toContain("deploy");
  });

  it("resume() rejects when there is nothing to resume", async () => {
    const agent = createAgent({ model: mockModel([{ text: "hi" }]) });
    const s = await agent.sessions.create();
    await agent.prompt(s.id, "hello");
    await expect(agent.resume(s.id)).rejects.toBeInstanceOf(NothingToResumeError);
  });
});

describe("approvals that outlive the process", () => {
  const dir = mkdtempSync(join(tmpdir(), "lathe-resume-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const child = fileURLToPath(new URL("./fixtures/ask-and-wait.ts", import.meta.url));

  async function askInChildAndKill(dbPath: string, sessionID: string): Promise<string> {
    const proc = spawn(process.execPath, [child, dbPath, sessionID], { stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    proc.stderr.on("data", (d) => (stderr += d));
    const requestID = await new Promise<string>((resolve, reject) => {
      let out = "";
      proc.stdout.on("data", (d) => {
        out += d;
        const match = /ASKED (\S+)/.exec(out);
        if (match) resolve(match[1]!);
      });
      proc.on("exit", (code) => reject(new Error(`child exited (${code}) before asking: ${stderr}`)));
    });
    proc.kill("SIGKILL");
    await new Promise((resolve) => proc.on("exit", resolve));
    return requestID;
  }

  for (const when of ["before", "after"] as const) {
    it(`a request asked in a killed process is answered ${when} resume() in a new one, and the turn goes on`, async () => {
      const dbPath = join(dir, `${when}.sqlite`);
      const setup = new SqliteStorage(dbPath);
      const bootstrap = createAgent({ model: mockModel([]), storage: setup });
      const session = await bootstrap.sessions.create({ title: "deploy" });
      const requestID = await askInChildAndKill(dbPath, session.id);

      const log: string[] = [];
      const model = mockModel([{ text: "Deployed the api." }]);
      const agent = createAgent({ model, storage: setup, tools: [deployTool(log)], permission: { deploy: "ask" }, leaseTtlMs: 500 });
      // The dead process's lease lapses.
      await new Promise((r) => setTimeout(r, 600));
      const pending = await agent.permissions.pending(session.id);
      expect(pending.map((r) => r.id)).toEqual([requestID]);
      expect(pending[0]).toMatchObject({ permission: "deploy", patterns: ["prod/api"], tool: { callID: "call_deploy" } });

      let run;
      if (when === "before") {
        await agent.permissions.reply(requestID, "once");
        run = agent.resume(session.id);
      } else {
        run = agent.resume(session.id);
        await new Promise((r) => setTimeout(r, 100));
        await agent.permissions.reply(requestID, "once");
      }
      const { info, parts } = await run;
      expect(info.error).toBeUndefined();
      expect(info.finish).toBe("stop");
      expect(log).toEqual(["prod/api"]);
      expect(parts.find((p) => p.type === "tool")).toMatchObject({ callID: "call_deploy", state: { status: "completed" } });
      expect(parts.filter((p) => p.type === "text").map((p) => (p.type === "text" ? p.text : ""))).toEqual(["Deploying.", "Deployed the api."]);
      expect((await setup.getSession(session.id))?.permission?.pending).toEqual([]);
      await setup.close();
    });
  }
});

describe("rule layers", () => {
  it("the plan agent cannot edit; per-agent host rules come last", async () => {
    const { writeFileSync, mkdtempSync, readFileSync } = await import("node:fs");
    const cwd = mkdtempSync(join(tmpdir(), "lathe-plan-"));
    writeFileSync(join(cwd, "a.txt"), "old\n");
    const model = mockModel([
      {
        toolCalls: [
          { name: "write", input: { path: "a.txt", content: "new\n" } },
          { name: "write", input: { path: ".lathe/plans/fix.md", content: "# Plan\n" } },
        ],
      },
      { text: "I cannot edit in plan mode, but the plan is written." },
      { toolCalls: [{ name: "deploy", input: { target: "prod/api" } }] },
      { text: "denied for plan" },
    ]);
    const log: string[] = [];
    const agent = createAgent({
      model,
      cwd,
      dataDir: join(cwd, ".data"),
      tools: [deployTool(log), ...(await import("@lathe/tools")).builtinTools()],
      permission: { deploy: "allow" },
      agents: { plan: { permission: { deploy: { "prod/*": "deny" } } } },
    });
    const s = await agent.sessions.create();
    const first = await agent.prompt(s.id, "change a.txt", { agent: "plan" });
    // Plan may only write plan files.
    const writes = first.parts.filter((p) => p.type === "tool");
    expect(writes.map((p) => p.type === "tool" && p.state.status)).toEqual(["error", "completed"]);
    expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("old\n");
    expect(readFileSync(join(cwd, ".lathe/plans/fix.md"), "utf8")).toBe("# Plan\n");
    const second = await agent.prompt(s.id, "deploy", { agent: "plan" });
    expect(second.parts.find((p) => p.type === "tool")).toMatchObject({ state: { status: "error" } });
    expect(log).toEqual([]);
    rmSync(cwd, { recursive: true, force: true });
  });
});
