// Plan is read-only whatever the host's rules say: in `plan` mode, and for the plan agent in any
// mode, edits (but plan files) and shell commands are denied or asked in every rule configuration;
// and no mode — bypass included — lets a deny rule through. Each configuration runs the same tool
// calls under every mode with the build and the plan agent.
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LanguageModelV4CallOptions } from "@ai-sdk/provider";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAgent, type AgentOptions, type PermissionMode, type PermissionRequest } from "@lathe/core";
import { mockModel, type MockToolCall } from "@lathe/mock";

let root: string;
let cwd: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "lathe-plan-rules-"));
  cwd = join(root, "repo");
  mkdirSync(join(cwd, ".git"), { recursive: true });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const MODES: PermissionMode[] = ["default", "acceptEdits", "plan", "bypass"];
const AGENTS = ["build", "plan"] as const;

/** Host rule configurations, from none to everything allowed in each way a host can say it. */
const CONFIGS: Array<[string, Pick<AgentOptions, "permission" | "agents">]> = [
  ["no host rules", {}],
  ['permission: { edit: "allow" }', { permission: { edit: "allow" } }],
  ['permission: { bash: "allow" }', { permission: { bash: "allow" } }],
  ['permission: { "*": "allow" }', { permission: { "*": "allow" } }],
  ["edit and bash allowed per pattern", { permission: { edit: { "*": "allow", "*.txt": "allow" }, bash: { "*": "allow", "echo *": "allow" } } }],
  ["an allow-all rule list", { permission: [{ permission: "*", pattern: "*", action: "allow" }] }],
  ["the plan agent's own rules opened up", { agents: { plan: { permission: { "*": "allow", edit: "allow", bash: "allow" } } } }],
  ["every agent's rules opened up", { permission: { "*": "allow" }, agents: { build: { permission: { "*": "allow" } }, plan: { permission: { "*": "allow" } } } }],
];

const CALLS: MockToolCall[] = [
  { id: "edit", name: "write", input: { path: "a.txt", content: "a" } },
  { id: "plan-file", name: "write", input: { path: ".lathe/plans/p.md", content: "# plan" } },
  { id: "shell", name: "bash", input: { command: "echo hi" } },
  { id: "shell-write", name: "bash", input: { command: "echo hi > shell.txt" } },
];

/** A model that makes {@link CALLS} in its first step of each turn and then answers. */
function callingModel() {
  const turn = (call: LanguageModelV4CallOptions) => {
    const last = call.prompt.at(-1)!;
    return last.role === "user" ? { toolCalls: CALLS.map((c) => ({ ...c, id: `${c.id}-${Math.random().toString(36).slice(2)}` })) } : { text: "done" };
  };
  return mockModel(Array.from({ length: 2 * MODES.length * AGENTS.length }, () => turn));
}

/** Per call of one turn: `asked` (and how it ended) or `not asked`, and whether it completed. */
type Outcome = { asked: boolean; completed: boolean };

async function runMatrix(config: Pick<AgentOptions, "permission" | "agents">, approve: "once" | "reject" = "once") {
  const asks: PermissionRequest[] = [];
  const agent = createAgent({
    model: callingModel(),
    cwd,
    configDir: false,
    snapshots: false,
    dataDir: join(root, "data"),
    ...config,
    approve: async (request) => {
      asks.push(request);
      return approve;
    },
  });
  const results: Array<{ mode: PermissionMode; agent: string; outcomes: Record<string, Outcome>; wrote: string[] }> = [];
  for (const mode of MODES) {
    for (const agentName of AGENTS) {
      // Each turn starts from the same tree (`write` would refuse to overwrite a file it has not read).
      for (const file of ["a.txt", "shell.txt", ".lathe"]) rmSync(join(cwd, file), { recursive: true, force: true });
      const session = await agent.sessions.create();
      const { parts } = await agent.prompt(session.id, "go", { mode, agent: agentName });
      const outcomes: Record<string, Outcome> = {};
      for (const part of parts) {
        if (part.type !== "tool") continue;
        const id = part.callID.slice(0, part.callID.lastIndexOf("-"));
        outcomes[id] = { asked: asks.some((r) => r.tool?.callID === part.callID), completed: part.state.status === "completed" };
      }
      const wrote = ["a.txt", "shell.txt"].filter((file) => existsSync(join(cwd, file)));
      results.push({ mode, agent: agentName, outcomes, wrote });
    }
  }
  await agent.close();
  return results;
}

describe("plan holds in every rule configuration", () => {
  for (const [label, config] of CONFIGS) {
    it(`with ${label}`, async () => {
      const results = await runMatrix(config);
      expect(results).toHaveLength(MODES.length * AGENTS.length);
      for (const { mode, agent, outcomes, wrote } of results) {
        const where = `${agent} agent in ${mode} mode`;
        expect(Object.keys(outcomes).sort(), where).toEqual(["edit", "plan-file", "shell", "shell-write"]);
        if (mode === "plan" || agent === "plan") {
          // The edit is denied (never run), every shell command asked, and the one that writes a
          // file refused (its redirection is an edit); the plan file may be written.
          expect(outcomes.edit, where).toEqual({ asked: false, completed: false });
          expect(outcomes.shell, where).toEqual({ asked: true, completed: true });
          expect(outcomes["shell-write"]!.completed, where).toBe(false);
          expect(outcomes["plan-file"]!.completed, where).toBe(true);
          expect(wrote, where).toEqual([]);
        } else {
          // Outside plan nothing here is denied: edits and commands run (asked or not, as the rules say).
          for (const [id, outcome] of Object.entries(outcomes)) expect(outcome.completed, `${id}: ${where}`).toBe(true);
          expect(wrote, where).toEqual(["a.txt", "shell.txt"]);
        }
      }
    });
  }

  it("a shell command the user rejects in plan is not run, even where the host allows every command", async () => {
    const results = await runMatrix({ permission: { "*": "allow", bash: "allow" } }, "reject");
    for (const { mode, agent, outcomes, wrote } of results) {
      if (mode !== "plan" && agent !== "plan") continue;
      expect(outcomes.shell, `${agent} agent in ${mode} mode`).toEqual({ asked: true, completed: false });
      expect(outcomes["shell-write"]!.completed).toBe(false);
      expect(wrote).toEqual([]);
    }
  });
});

describe("no mode passes a deny", () => {
  for (const [label, permission] of [
    ["deny rules after allow-all", { "*": "allow", edit: { "*": "allow", "a.txt": "deny" }, bash: { "*": "allow", "echo *": "deny" } }],
    ["edits and commands denied outright", { edit: "deny", bash: "deny" }],
  ] as const) {
    it(`with ${label}`, async () => {
      const results = await runMatrix({ permission });
      for (const { mode, agent, outcomes, wrote } of results) {
        const where = `${agent} agent in ${mode} mode`;
        expect(outcomes.edit, where).toEqual({ asked: false, completed: false });
        expect(outcomes.shell, where).toEqual({ asked: false, completed: false });
        expect(outcomes["shell-write"]!.completed, where).toBe(false);
        expect(wrote, where).toEqual([]);
        // A plan file is an edit: denied with every edit, allowed where only a.txt is denied.
        expect(outcomes["plan-file"]!.completed, where).toBe(label === "deny rules after allow-all");
      }
    });
  }
});
