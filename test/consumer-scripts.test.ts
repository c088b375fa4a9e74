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
// @ts-expect-error -- plain JavaScript scripts, without declarations
import { undeclaredTypeImports } from "../scripts/consumer/app.mjs";

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

describe("consumer check: the dependencies of type declarations", () => {
  let dir: string | undefined;
  afterEach(() => dir && rmSync(dir, { recursive: true, force: true }));

  it("names each package a .d.ts imports without depending on it, or on its @types package", () => {
    dir = mkdtempSync(join(tmpdir(), "lathe-dts-"));
    const root = join(dir, "root");
    const write = (path: string, text: string) => {
      mkdirSync(join(path, ".."), { recursive: true });
      writeFileSync(path, text);
    };
    // At the root: an untyped package (types in @types/untyped) and one with its own declarations.
    write(join(root, "node_modules", "untyped", "package.json"), JSON.stringify({ name: "untyped", main: "index.js" }));
    write(join(root, "node_modules", "typed", "package.json"), JSON.stringify({ name: "typed", types: "index.d.ts" }));
    const pkg = join(dir, "package");
    write(join(pkg, "package.json"), JSON.stringify({ name: "@x/p", dependencies: { untyped: "1", typed: "1" } }));
    write(
      join(pkg, "dist", "index.d.ts"),
      'import { A } from "typed";\nimport type { B } from "untyped";\nimport { C } from "missing/sub";\nimport { D } from "./local.js";\nimport { E } from "node:fs";\ntype F = import("@scope/gone").F;\n',
    );
    expect(undeclaredTypeImports("@x/p", pkg, root)).toEqual([
      "@x/p: dist/index.d.ts imports untyped, whose types come from @types/untyped: not among its dependencies",
      "@x/p: dist/index.d.ts imports missing, which is not among its dependencies",
      "@x/p: dist/index.d.ts imports @scope/gone, which is not among its dependencies",
    ]);
  });

  it("finds nothing missing in this repository's packages", () => {
    const root = new URL("..", import.meta.url).pathname;
    for (const { dir: packageDir, manifest } of publishablePackages()) {
      expect(undeclaredTypeImports(manifest.name, packageDir, root)).toEqual([]);
    }
  });
});
