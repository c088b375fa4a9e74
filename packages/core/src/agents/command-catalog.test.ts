import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { put, tempRepo, type TempRepo } from "./test-files.js";
import { CommandCatalog } from "./command-catalog.js";
import { MAX_DEFINITION_BYTES } from "./front-matter.js";

let root: string;
let repo: string;
let cwd: string;
let config: string;
let temp: TempRepo;

beforeEach(() => {
  temp = tempRepo("lathe-definitions-", "app");
  ({ root, repo, cwd, config } = temp);
});
afterEach(() => temp.remove());

describe("CommandCatalog discovery", () => {
  it("finds commands in each location, sub-folders named folder:name, with their front matter", async () => {
    put(join(cwd, ".lathe/commands/review.md"), "---\ndescription: Review code\nagent: plan\nmodel: fast\n---\nReview $ARGUMENTS\n");
    put(join(cwd, ".claude/commands/git/commit.md"), "Commit the staged changes.");
    put(join(repo, ".opencode/command/explain.md"), "---\nsubtask: true\nagent: explore\n---\nExplain $1");
    put(join(root, "host/deploy.md"), "Deploy $1");
    put(join(config, "commands/mine.md"), "Mine");
    put(join(cwd, ".lathe/commands/notes.txt"), "not markdown");
    const catalog = new CommandCatalog({ cwd, configDir: config, commands: { paths: [join(root, "host")], define: { hello: { template: "Say hello to $1", description: "Greets" } } } });
    const { commands, problems } = await catalog.discover();
    expect(problems).toEqual([]);
    expect(commands.map((c) => [c.name, c.origin])).toEqual([
      ["deploy", "host"],
      ["explain", "project"],
      ["git:commit", "project"],
      ["hello", "code"],
      ["mine", "user"],
      ["review", "project"],
    ]);
    const review = commands.find((c) => c.name === "review")!;
    expect(review).toMatchObject({ description: "Review code", agent: "plan", model: "fast", subtask: false, template: "Review $ARGUMENTS\n" });
    expect(commands.find((c) => c.name === "explain")).toMatchObject({ subtask: true, agent: "explore", template: "Explain $1" });
  });

  it("code beats files, and the nearest file wins; clashes are reported", async () => {
    put(join(cwd, ".lathe/commands/hello.md"), "file hello");
    put(join(cwd, ".lathe/commands/fix.md"), "near fix");
    put(join(repo, ".lathe/commands/fix.md"), "root fix");
    put(join(config, "commands/fix.md"), "user fix");
    const catalog = new CommandCatalog({ cwd, configDir: config, commands: { define: { hello: { template: "code hello" } } } });
    const { commands, problems } = await catalog.discover();
    expect(commands.map((c) => c.template)).toEqual(["near fix", "code hello"]);
    expect(problems.map((p) => [p.kind, p.name])).toEqual([["clash", "hello"], ["clash", "fix"], ["clash", "fix"]]);
  });

  it("reports malformed command files and keeps the others", async () => {
    const dir = join(cwd, ".lathe/commands");
    put(join(dir, "ok.md"), "fine");
    put(join(dir, "broken.md"), "---\nagent: [x\n---\nbody");
    put(join(dir, "typed.md"), "---\nsubtask: maybe\n---\nbody");
    put(join(dir, "huge.md"), "x".repeat(MAX_DEFINITION_BYTES + 1));
    put(join(dir, "binary.md"), Buffer.from([0, 1, 2, 3]));
    put(join(dir, "bad name!.md"), "name with a space");
    const { commands, problems } = await new CommandCatalog({ cwd, configDir: false }).discover();
    expect(commands.map((c) => c.name)).toEqual(["ok"]);
    expect(problems.map((p) => p.path.split("/").pop()).sort()).toEqual(["bad name!.md", "binary.md", "broken.md", "huge.md", "typed.md"]);
  });

  it("refuses commands defined in code with a path separator in the name or no template", () => {
    expect(() => new CommandCatalog({ cwd, commands: { define: { "a/b": { template: "x" } } } })).toThrow(/path separator/);
    expect(() => new CommandCatalog({ cwd, commands: { define: { ok: {} as never } } })).toThrow(/template/);
    expect(() => new CommandCatalog({ cwd, commands: { path: ["x"] } as never })).toThrow(/commands/);
  });
});
