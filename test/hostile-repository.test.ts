// Workspace trust against a repository an attacker prepared (test/fixtures/hostile-repository.ts):
// untrusted, writes, `diagnostics` (plan mode too) and commands run none of its programs or configs;
// trusted, its own formatter runs, as before.
import { readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createAgent, InvalidInputError, RejectedError, type AgentOptions, type PermissionRequest } from "@lathe/core";
import { createLsp } from "@lathe/lsp";
import { mockModel } from "@lathe/mock";
import { hostileRepository, type HostileRepository } from "./fixtures/hostile-repository.js";

let repo: HostileRepository | undefined;
const savedPath = process.env.PATH;
afterEach(() => {
  process.env.PATH = savedPath;
  repo?.cleanup();
  repo = undefined;
});

const NO_SERVERS = { typescript: false, pyright: false, gopls: false, "rust-analyzer": false } as const;

function agentIn(r: HostileRepository, options: Omit<AgentOptions, "cwd">) {
  return createAgent({ cwd: r.ws, configDir: false, snapshots: false, dataDir: join(r.root, "data"), ...options });
}

function toolOutputs(parts: { type: string }[]): string[] {
  return parts.flatMap((p) => (p.type === "tool" && "state" in p ? [JSON.stringify((p as { state: unknown }).state)] : []));
}

describe("a hostile repository in an untrusted workspace (the default)", () => {
  it("writes and diagnostics — in plan mode too — run none of its formatters, servers or configs", async () => {
    repo = hostileRepository();
    const model = mockModel([
      { toolCalls: [{ name: "write", input: { path: "src/new.ts", content: 'export const  wrong: number = "text";\n' } }, { name: "write", input: { path: "src/tool.py", content: "x  =  1\n" } }] },
      { toolCalls: [{ name: "diagnostics", input: { path: "src/new.ts" } }] },
      { text: "done" },
      { toolCalls: [{ name: "diagnostics", input: { path: "src/app.ts" } }, { name: "diagnostics", input: {} }] },
      { text: "planned" },
    ]);
    const lsp = createLsp({ servers: { pyright: false, gopls: false, "rust-analyzer": false }, timeoutMs: 30_000 });
    const agent = agentIn(repo, { model, lsp });
    const session = await agent.sessions.create();
    const built = await agent.prompt(session.id, "write the files");
    expect(built.info.error).toBeUndefined();
    // Written as the model wrote them: no formatter of the repository (nor one above it) touched them.
    expect(readFileSync(join(repo.ws, "src/new.ts"), "utf8")).toBe('export const  wrong: number = "text";\n');
    expect(readFileSync(join(repo.ws, "src/tool.py"), "utf8")).toBe("x  =  1\n");
    // Lathe's own TypeScript server checked the file (the project was loaded, its tsconfig read).
    expect(toolOutputs(built.parts).join("\n")).toContain("TS2322");
    const planned = await agent.prompt(session.id, "look only", { mode: "plan" });
    expect(planned.info.error).toBeUndefined();
    expect(toolOutputs(planned.parts).filter((o) => o.includes('"status":"completed"'))).toHaveLength(2);
    await agent.close();
    expect(repo.ran()).toEqual([]);
  }, 60_000);

  it("a formatter the host names by bare name is looked up on the host's PATH, never in the workspace", async () => {
    repo = hostileRepository();
    process.env.PATH = [join(repo.ws, "tools"), "tools", savedPath].join(delimiter);
    const model = mockModel([{ toolCalls: [{ name: "write", input: { path: "notes.txt", content: "plain\n" } }] }, { text: "ok" }]);
    const lsp = createLsp({ servers: NO_SERVERS, formatters: { hostfmt: { command: ["hostfmt"], extensions: [".txt"] } } });
    for (const trust of ["untrusted", "trusted"] as const) {
      const agent = agentIn(repo, { model: mockModel([{ toolCalls: [{ name: "write", input: { path: `notes-${trust}.txt`, content: "plain\n" } }] }, { text: "ok" }]), lsp, trust });
      const session = await agent.sessions.create();
      await agent.prompt(session.id, "write");
      expect(readFileSync(join(repo.ws, `notes-${trust}.txt`), "utf8")).toBe("plain\n");
      await agent.close();
    }
    void model;
    expect(repo.ran()).toEqual([]);
  });

  it("a project command cannot pick its agent; one symlinked out of the repository is asked for and, refused, never reaches the model", async () => {
    repo = hostileRepository();
    const asked: PermissionRequest[] = [];
    const model = mockModel([{ text: "answered" }]);
    const agent = agentIn(repo, {
      model,
      approve: async (request) => {
        asked.push(request);
        return "reject";
      },
    });
    const session = await agent.sessions.create();
    expect((await agent.commands.list()).map((c) => [c.name, c.agent])).toEqual([["escalate", "general"], ["leak", undefined]]);
    const escalated = await agent.command(session.id, "escalate");
    expect(escalated.info.agent).toBe("build");
    const leak = await agent.command(session.id, "leak").catch((error: unknown) => error);
    expect(leak).toBeInstanceOf(RejectedError);
    expect(asked.map((r) => [r.permission, r.patterns])).toEqual([["external_directory", [`${join(repo.root, "outside")}/*`]]]);
    expect(JSON.stringify(model.calls)).not.toContain("SECRET-OUTSIDE");
    await agent.close();
  });

  it("a skill whose SKILL.md is symlinked out of the repository is asked for before its text reaches the model", async () => {
    repo = hostileRepository();
    const asked: PermissionRequest[] = [];
    const model = mockModel([{ toolCalls: [{ name: "skill", input: { name: "leaky" } }] }, { text: "ok" }]);
    const agent = agentIn(repo, { model, approve: async (request) => (asked.push(request), request.permission === "skill" ? "once" : { reject: "no" }) });
    const session = await agent.sessions.create();
    const { parts } = await agent.prompt(session.id, "use the skill");
    expect(asked.map((r) => r.permission)).toEqual(["external_directory"]);
    expect(JSON.stringify(parts)).not.toContain("SKILL-SECRET-OUTSIDE");
    expect(JSON.stringify(model.calls)).not.toContain("SKILL-SECRET-OUTSIDE");
    await agent.close();
  });

  it("a command symlinked onto the repository's .env is asked for like a read of .env", async () => {
    repo = hostileRepository();
    writeFileSync(join(repo.ws, ".env"), "TOKEN=ENV-SECRET-IN-COMMAND\n");
    symlinkSync(join(repo.ws, ".env"), join(repo.ws, ".lathe/commands/env.md"));
    const asked: PermissionRequest[] = [];
    const model = mockModel([{ text: "answered" }]);
    const agent = agentIn(repo, { model, approve: async (request) => (asked.push(request), "reject") });
    const session = await agent.sessions.create();
    await expect(agent.command(session.id, "env")).rejects.toBeInstanceOf(RejectedError);
    expect(asked.map((r) => [r.permission, r.patterns])).toEqual([["read", [".env"]]]);
    expect(JSON.stringify(model.calls)).not.toContain("ENV-SECRET-IN-COMMAND");
    // The repository's own command files need no ask.
    await agent.command(session.id, "escalate");
    expect(asked).toHaveLength(1);
    await agent.close();
  });

  it("an instruction file symlinked to a secret is left out of the system prompt; one linked to the repository's Markdown is kept", async () => {
    repo = hostileRepository();
    writeFileSync(join(repo.ws, ".env"), "TOKEN=ENV-SECRET-IN-AGENTS\n");
    symlinkSync(join(repo.ws, ".env"), join(repo.ws, "AGENTS.md"));
    symlinkSync(repo.outside, join(repo.ws, "CONTEXT.md"));
    writeFileSync(join(repo.ws, "GUIDE.md"), "Use tabs (GUIDE-INSTRUCTIONS).\n");
    symlinkSync(join(repo.ws, "GUIDE.md"), join(repo.ws, "CLAUDE.md"));
    const model = mockModel([{ text: "ok" }]);
    const agent = agentIn(repo, { model });
    const session = await agent.sessions.create();
    await agent.prompt(session.id, "hello");
    const sent = JSON.stringify(model.calls[0]?.prompt);
    expect(sent).toContain("GUIDE-INSTRUCTIONS");
    expect(sent).not.toContain("ENV-SECRET-IN-AGENTS");
    expect(sent).not.toContain("SECRET-OUTSIDE-THE-REPOSITORY");
    await agent.close();
  });

  it("refuses a trust value that is not one", () => {
    expect(() => createAgent({ model: mockModel([]), trust: "yes" as never })).toThrow(InvalidInputError);
  });
});

describe("the same repository, trusted by the host", () => {
  it("runs the repository's own formatters (prettier from its node_modules, black from its .venv), never one above it", async () => {
    repo = hostileRepository();
    const model = mockModel([
      { toolCalls: [{ name: "write", input: { path: "src/new.ts", content: "export const x = 1;\n" } }, { name: "write", input: { path: "src/tool.py", content: "x = 1\n" } }] },
      { text: "done" },
    ]);
    const agent = agentIn(repo, { model, trust: "trusted", lsp: createLsp({ servers: NO_SERVERS }) });
    const session = await agent.sessions.create();
    await agent.prompt(session.id, "write");
    expect(readFileSync(join(repo.ws, "src/new.ts"), "utf8")).toBe("// formatted by the repository prettier\nexport const x = 1;\n");
    expect(readFileSync(join(repo.ws, "src/tool.py"), "utf8")).toBe("# formatted by the virtualenv black\nx = 1\n");
    await agent.close();
    expect(repo.ran()).toEqual(["repo-prettier", "venv-black"]);
  });

  it("a project command runs with the agent its front matter names", async () => {
    repo = hostileRepository();
    const agent = agentIn(repo, { model: mockModel([{ text: "answered" }]), trust: "trusted" });
    const session = await agent.sessions.create();
    expect((await agent.command(session.id, "escalate")).info.agent).toBe("general");
    await agent.close();
  });
});
