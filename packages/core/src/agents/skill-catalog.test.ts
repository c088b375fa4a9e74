import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { put, tempRepo, type TempRepo } from "./test-files.js";
import { MAX_DEFINITION_BYTES } from "./front-matter.js";
import { SkillCatalog } from "./skill-catalog.js";
import { listSkillFiles, skillsSection } from "./skill-tool.js";

let root: string;
let repo: string;
let cwd: string;
let config: string;
let temp: TempRepo;

const skill = (name: string, description: string, body = "Do it.") => `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`;

beforeEach(() => {
  temp = tempRepo("lathe-definitions-", "packages/app");
  ({ root, repo, cwd, config } = temp);
});
afterEach(() => temp.remove());

describe("SkillCatalog discovery", () => {
  it("finds skills in each location: .lathe/skills, .claude/skills, .opencode/skill, host paths, the user's config", async () => {
    put(join(cwd, ".lathe/skills/lathe-one/SKILL.md"), skill("lathe-one", "From .lathe"));
    put(join(cwd, ".claude/skills/claude-one/SKILL.md"), skill("claude-one", "From .claude"));
    put(join(repo, ".opencode/skill/opencode-one/SKILL.md"), skill("opencode-one", "From .opencode at the root"));
    put(join(root, "host/pack/host-one/SKILL.md"), skill("host-one", "From a host folder of skills"));
    put(join(root, "single/SKILL.md"), skill("single-one", "A host path that is one skill"));
    put(join(config, "skills/user-one/SKILL.md"), skill("user-one", "From the user's config"));
    put(join(root, ".lathe/skills/above-root/SKILL.md"), skill("above-root", "Above the repository root: not found"));
    const catalog = new SkillCatalog({ cwd, configDir: config, skills: { paths: [join(root, "host/pack"), "../../../single"] } });
    const { skills, problems } = await catalog.discover();
    expect(problems).toEqual([]);
    expect(skills.map((s) => [s.name, s.origin])).toEqual([
      ["claude-one", "project"],
      ["host-one", "host"],
      ["lathe-one", "project"],
      ["opencode-one", "project"],
      ["single-one", "host"],
      ["user-one", "user"],
    ]);
    const one = skills.find((s) => s.name === "lathe-one")!;
    expect(one.directory).toBe(join(cwd, ".lathe/skills/lathe-one"));
    expect(one.path).toBe(join(one.directory, "SKILL.md"));
  });

  it("the nearest skill of a name wins and the clash is reported", async () => {
    put(join(cwd, ".claude/skills/review/SKILL.md"), skill("review", "near, .claude"));
    put(join(cwd, ".lathe/skills/review/SKILL.md"), skill("review", "near, .lathe"));
    put(join(repo, ".lathe/skills/review/SKILL.md"), skill("review", "at the root"));
    put(join(root, "host/review/SKILL.md"), skill("review", "host"));
    put(join(config, "skills/review/SKILL.md"), skill("review", "user"));
    const catalog = new SkillCatalog({ cwd, configDir: config, skills: { paths: [join(root, "host")] } });
    const { skills, problems } = await catalog.discover();
    expect(skills.map((s) => s.description)).toEqual(["near, .lathe"]);
    expect(problems.map((p) => [p.kind, p.name])).toEqual(Array(4).fill(["clash", "review"]));
    expect(problems[0]!.message).toContain(join(cwd, ".lathe/skills/review/SKILL.md"));
  });

  it("host paths outrank the user's config directory", async () => {
    put(join(root, "host/deploy/SKILL.md"), skill("deploy", "host"));
    put(join(config, "skills/deploy/SKILL.md"), skill("deploy", "user"));
    const { skills } = await new SkillCatalog({ cwd, configDir: config, skills: { paths: [join(root, "host")] } }).discover();
    expect(skills.map((s) => s.description)).toEqual(["host"]);
  });

  it("reports malformed files and keeps going: broken YAML, no description, huge, binary, bad names, unclosed front matter", async () => {
    const dir = join(cwd, ".lathe/skills");
    put(join(dir, "ok/SKILL.md"), skill("ok", "Fine"));
    put(join(dir, "broken/SKILL.md"), "---\nname: broken\ndescription: [unclosed\n---\nbody\n");
    put(join(dir, "nodesc/SKILL.md"), "---\nname: nodesc\n---\nbody\n");
    put(join(dir, "huge/SKILL.md"), skill("huge", "Huge", "x".repeat(MAX_DEFINITION_BYTES)));
    put(join(dir, "binary/SKILL.md"), Buffer.from([0x2d, 0x2d, 0x2d, 0x0a, 0x00, 0x01, 0x02, 0xff]));
    put(join(dir, "slash/SKILL.md"), skill("../escape", "Path separator in the name"));
    put(join(dir, "unclosed/SKILL.md"), "---\nname: unclosed\ndescription: never closed\n");
    put(join(dir, "list/SKILL.md"), "---\n- a\n- b\n---\n");
    const { skills, problems } = await new SkillCatalog({ cwd, configDir: false }).discover();
    expect(skills.map((s) => s.name)).toEqual(["ok"]);
    const byFolder = Object.fromEntries(problems.map((p) => [p.path.split("/").at(-2), p]));
    expect(Object.keys(byFolder).sort()).toEqual(["binary", "broken", "huge", "list", "nodesc", "slash", "unclosed"]);
    expect(problems.every((p) => p.kind === "invalid")).toBe(true);
    expect(byFolder.broken!.message).toContain("not valid YAML");
    expect(byFolder.nodesc!.message).toContain("description");
    expect(byFolder.huge!.message).toContain("over the limit");
    expect(byFolder.binary!.message).toContain("binary");
    expect(byFolder.slash!.message).toContain("path separator");
    expect(byFolder.unclosed!.message).toContain("never closed");
    expect(byFolder.list!.message).toContain("mapping");
  });

  it("names a skill after its folder when the front matter has no name, and follows edits of the file", async () => {
    const file = join(cwd, ".lathe/skills/folder-name/SKILL.md");
    put(file, "---\ndescription: first\n---\n");
    const catalog = new SkillCatalog({ cwd, configDir: false });
    expect((await catalog.discover()).skills.map((s) => [s.name, s.description])).toEqual([["folder-name", "first"]]);
    put(file, "---\ndescription: second, and longer\n---\n");
    expect((await catalog.discover()).skills.map((s) => s.description)).toEqual(["second, and longer"]);
  });

  it("switches skills on by name pattern, or off", async () => {
    put(join(cwd, ".lathe/skills/review-a/SKILL.md"), skill("review-a", "a"));
    put(join(cwd, ".lathe/skills/deploy/SKILL.md"), skill("deploy", "d"));
    expect((await new SkillCatalog({ cwd, configDir: false, skills: { enabled: ["review-*"] } }).discover()).skills.map((s) => s.name)).toEqual(["review-a"]);
    expect((await new SkillCatalog({ cwd, configDir: false, skills: { enabled: false } }).discover()).skills).toEqual([]);
    expect(() => new SkillCatalog({ cwd, skills: { enabled: "yes" } as never })).toThrow(/skills\.enabled/);
    expect((await new SkillCatalog({ cwd, configDir: false, skills: { enabled: { "*": false, deploy: true } } }).discover()).skills.map((s) => s.name)).toEqual(["deploy"]);
    expect((await new SkillCatalog({ cwd, configDir: false, skills: { enabled: { "review-*": false } } }).discover()).skills.map((s) => s.name)).toEqual(["deploy"]);
  });
});

describe("the skill list in the system prompt", () => {
  it("is sorted and byte-identical for the same skills in any order", async () => {
    const a = { name: "b-skill", description: "B", path: "/x/b/SKILL.md", directory: "/x/b", origin: "project" as const };
    const b = { name: "a-skill", description: "A", path: "/y/a/SKILL.md", directory: "/y/a", origin: "user" as const };
    expect(skillsSection([a, b])).toBe(skillsSection([b, a]));
    expect(skillsSection([a, b])).toMatch(/- a-skill: A\n- b-skill: B/);
    expect(skillsSection([a, b])).not.toContain("/x/b");
    expect(skillsSection([])).toBeUndefined();
  });
});

describe("listSkillFiles", () => {
  it("lists the other files of a skill's folder, sorted, without SKILL.md or hidden folders", async () => {
    const dir = join(root, "s");
    put(join(dir, "SKILL.md"), skill("s", "s"));
    put(join(dir, "scripts/run.sh"), "echo");
    put(join(dir, "reference.md"), "ref");
    put(join(dir, ".git/config"), "x");
    expect(await listSkillFiles(dir)).toEqual({ paths: ["reference.md", "scripts/run.sh"], more: false });
  });
});
