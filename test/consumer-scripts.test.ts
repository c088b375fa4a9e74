import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
// @ts-expect-error -- plain JavaScript scripts, without declarations
import { publishablePackages } from "../scripts/workspace-packages.mjs";
// @ts-expect-error -- plain JavaScript scripts, without declarations
import { EXPECTED_OUTPUT, SCRIPT, withScriptedModel, withWorkspace } from "../scripts/consumer/quick-start.mjs";
// @ts-expect-error -- plain JavaScript scripts, without declarations
import { extractSnippets, snippetUnder } from "../scripts/consumer/snippets.mjs";

// The pieces of the consumer check (scripts/consumer-check.mjs) that decide what it checks.
const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");

describe("consumer check: which packages", () => {
  let dir: string | undefined;
  afterEach(() => dir && rmSync(dir, { recursive: true, force: true }));

  it("packs every non-private workspace the root names, globs included, so a new package needs no edit", () => {
    dir = mkdtempSync(join(tmpdir(), "lathe-workspaces-"));
    const pkg = (path: string, manifest: object) => {
      mkdirSync(join(dir!, path), { recursive: true });
      writeFileSync(join(dir!, path, "package.json"), JSON.stringify(manifest));
    };
    pkg(".", { name: "root", private: true, workspaces: ["packages/*", "tools/one", "examples/*"] });
    pkg("packages/b", { name: "@x/b" });
    pkg("packages/a", { name: "@x/a" });
    mkdirSync(join(dir, "packages", "not-a-package"));
    pkg("tools/one", { name: "@x/one" });
    pkg("examples/demo", { name: "demo", private: true });
    expect(publishablePackages(dir).map((p: { manifest: { name: string } }) => p.manifest.name)).toEqual(["@x/a", "@x/b", "@x/one"]);
  });

  it("finds this repository's packages", () => {
    const names = publishablePackages().map((p: { manifest: { name: string } }) => p.manifest.name);
    expect(names).toEqual(expect.arrayContaining(["@lathe/core", "@lathe/storage", "@lathe/mock", "@lathe/storage-postgres"]));
    expect(names.every((name: string) => name.startsWith("@lathe/"))).toBe(true);
  });
});

describe("consumer check: the Quick start", () => {
  it("is the README's first block under its heading, reading run.textStream and handling info.error", () => {
    const code = snippetUnder(readme, "Quick start");
    expect(code).toContain("for await (const text of run.textStream)");
    expect(code).toContain("info.error");
  });

  it("swaps only the model (and its provider import) and the workspace", () => {
    const code = snippetUnder(readme, "Quick start");
    const scripted: string = withScriptedModel(code, "/tmp/work space");
    expect(scripted).not.toContain("@ai-sdk/");
    expect(scripted).toContain('import { mockModel } from "@lathe/mock";');
    expect(scripted).toContain(`model: mockModel(${JSON.stringify(SCRIPT)}),`);
    expect(scripted).toContain('cwd: "/tmp/work space",');
    // Everything else is as written.
    const rest = (text: string) => text.split("\n").filter((line) => !/^\s*(model|cwd):|^import .* from "(@ai-sdk\/|@lathe\/mock)/.test(line));
    expect(rest(scripted)).toEqual(rest(code));
    expect(withWorkspace(code, "/w")).toContain('anthropic("claude-sonnet-4-5")');
  });

  it("fails loudly when the README's Quick start no longer has the lines it swaps", () => {
    expect(() => withScriptedModel('import { createAgent } from "@lathe/core";\n', "/w")).toThrow(/no AI SDK provider/);
    expect(() => withWorkspace("const agent = createAgent({ model });\n", "/w")).toThrow(/`cwd:`/);
    expect(() => snippetUnder("# Title\n\ntext\n", "Quick start")).toThrow(/no "Quick start" heading/);
  });

  it("expects exactly the scripted text, none of the reasoning or tool input", () => {
    expect(EXPECTED_OUTPUT).toBe(SCRIPT.map((turn: { text: string }) => turn.text).join(""));
    expect(EXPECTED_OUTPUT).not.toMatch(/REASONING|TOOL INPUT/);
  });

  it("extracts fenced ts blocks with their line and continuation", () => {
    const snippets = extractSnippets("a\n```ts\nconst x = 1;\n```\n\n```ts continued\nx;\n```\n```sh\nls\n```\n");
    expect(snippets).toEqual([
      { line: 3, code: ["const x = 1;"], continued: false },
      { line: 7, code: ["x;"], continued: true },
    ]);
  });
});
