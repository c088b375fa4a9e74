import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { put } from "./helpers.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAgent, type AgentEvent } from "@lathe/core";
import { mockModel } from "@lathe/mock";
import type { LanguageModelV4CallOptions } from "@ai-sdk/provider";

let root: string;
let cwd: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "lathe-skills-e2e-"));
  cwd = join(root, "repo");
  mkdirSync(join(cwd, ".git"), { recursive: true });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const systemOf = (call: LanguageModelV4CallOptions) => call.prompt.filter((m) => m.role === "system").map((m) => m.content).join("\n");
const toolResults = (call: LanguageModelV4CallOptions) => JSON.stringify(call.prompt.filter((m) => m.role === "tool"));

function writeSkills(): void {
  put(
    join(cwd, ".lathe/skills/release-notes/SKILL.md"),
    "---\nname: release-notes\ndescription: Write release notes from the changelog.\n---\n# Release notes\nRead template.md beside this file, then write NOTES.md following it.\n",
  );
  put(join(cwd, ".lathe/skills/release-notes/template.md"), "## Highlights\n- TEMPLATE-MARKER\n");
  put(join(cwd, ".claude/skills/secret-ops/SKILL.md"), "---\nname: secret-ops\ndescription: Operations the host hides.\n---\nNever shown.\n");
}

describe("skills in a session", () => {
  it("lists skills in the system prompt, loads one with the skill tool and follows it", async () => {
    writeSkills();
    let skillDir = "";
    const model = mockModel([
      (call) => {
        expect(systemOf(call)).toContain("- release-notes: Write release notes from the changelog.");
        expect(systemOf(call)).not.toContain("Read template.md");
        return { toolCalls: [{ name: "skill", input: { name: "release-notes" } }] };
      },
      (call) => {
        const results = toolResults(call);
        expect(results).toContain("Read template.md beside this file");
        const match = /Base directory of this skill: ([^\\\n]+)/.exec(results);
        skillDir = match![1]!;
        expect(results).toContain(join(skillDir, "template.md"));
        return { toolCalls: [{ name: "read", input: { path: join(skillDir, "template.md") } }] };
      },
      (call) => {
        expect(toolResults(call)).toContain("TEMPLATE-MARKER");
        return { toolCalls: [{ name: "write", input: { path: "NOTES.md", content: "## Highlights\n- skills\n" } }] };
      },
      { text: "Release notes written." },
    ]);
    const agent = createAgent({ model, cwd, configDir: false, snapshots: false, permission: { skill: { "secret-ops": "deny" } } });
    const session = await agent.sessions.create();
    const events: AgentEvent[] = [];
    const run = agent.prompt(session.id, "Write the release notes");
    for await (const event of run) events.push(event);
    const { info, parts } = await run;
    expect(info.error).toBeUndefined();
    expect(info.finish).toBe("stop");
    const tools = parts.flatMap((p) => (p.type === "tool" ? [[p.tool, p.state.status]] : []));
    expect(tools).toEqual([["skill", "completed"], ["read", "completed"], ["write", "completed"]]);
    expect(skillDir).toBe(join(cwd, ".lathe/skills/release-notes"));
    // The denied skill is neither listed nor loadable.
    expect(systemOf(model.calls[0]!)).not.toContain("secret-ops");
    await agent.close();
  });

  it("keeps the skill list byte-identical from turn to turn and across agents", async () => {
    writeSkills();
    const model = mockModel([{ text: "one" }, { text: "two" }]);
    const agent = createAgent({ model, cwd, configDir: false, snapshots: false });
    const session = await agent.sessions.create();
    await agent.prompt(session.id, "first");
    await agent.prompt(session.id, "second");
    const section = (call: LanguageModelV4CallOptions) => /Skills:[\s\S]*?<\/available_skills>/.exec(systemOf(call))![0];
    expect(section(model.calls[0]!)).toBe(section(model.calls[1]!));
    expect(section(model.calls[0]!)).toMatch(/- release-notes: .*\n- secret-ops: /);
    await agent.close();
  });

  it("a skill denied by the rules or switched off for an agent cannot be loaded; no skills, no skill tool", async () => {
    writeSkills();
    const model = mockModel([
      { toolCalls: [{ name: "skill", input: { name: "secret-ops" } }] },
      { text: "ok" },
      { text: "plan answer" },
    ]);
    const agent = createAgent({
      model,
      cwd,
      configDir: false,
      snapshots: false,
      permission: { skill: { "secret-ops": "deny" } },
      agents: { plan: { skills: false } },
    });
    const session = await agent.sessions.create();
    const { parts } = await agent.prompt(session.id, "do the secret thing");
    const call = parts.find((p) => p.type === "tool");
    expect(call?.type === "tool" && call.state.status === "error" ? call.state.error : "").toContain('no skill named "secret-ops"');
    await agent.prompt(session.id, "plan it", { agent: "plan" });
    const planCall = model.calls[2]!;
    expect(systemOf(planCall)).not.toContain("available_skills");
    expect((planCall.tools ?? []).map((t) => t.name)).not.toContain("skill");
    await agent.close();
  });

  it("asks the skill permission with the skill's name as the pattern", async () => {
    writeSkills();
    const asked: string[][] = [];
    const model = mockModel([{ toolCalls: [{ name: "skill", input: { name: "release-notes" } }] }, { text: "done" }]);
    const agent = createAgent({
      model,
      cwd,
      configDir: false,
      snapshots: false,
      permission: { skill: "ask" },
      approve: async (request) => {
        asked.push([request.permission, ...request.patterns]);
        return "reject";
      },
    });
    const session = await agent.sessions.create();
    const { parts } = await agent.prompt(session.id, "notes");
    expect(asked).toEqual([["skill", "release-notes"]]);
    const call = parts.find((p) => p.type === "tool");
    expect(call?.type === "tool" && call.state.status).toBe("error");
    await agent.close();
  });

  it("agent.skills lists the skills and reports malformed files without failing", async () => {
    writeSkills();
    put(join(cwd, ".lathe/skills/broken/SKILL.md"), "---\ndescription: [oops\n---\n");
    const agent = createAgent({ model: mockModel([]), cwd, configDir: false, snapshots: false, skills: { enabled: ["release-*", "broken"] } });
    expect((await agent.skills.list()).map((s) => s.name)).toEqual(["release-notes"]);
    const problems = await agent.skills.problems();
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ kind: "invalid", path: join(cwd, ".lathe/skills/broken/SKILL.md") });
    await agent.close();
  });
});
