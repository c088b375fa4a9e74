import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ToolInputError } from "../errors.js";
import { writeSearchFixture } from "../search/search-fixture.js";
import { tempWorkspace, testContext } from "../test-context.js";
import { createGlobTool } from "./glob.js";

const backends = { ripgrep: createGlobTool({ ripgrep: "/usr/bin/rg" }), node: createGlobTool({ ripgrep: false }) };
let ws: Awaited<ReturnType<typeof tempWorkspace>>;
beforeEach(async () => {
  ws = await tempWorkspace();
  await writeSearchFixture(ws.dir);
});
afterEach(async () => ws.cleanup());

describe.each(Object.entries(backends))("glob (%s)", (_, glob) => {
  it("finds files newest first, skipping ignored files, .git and symlinks, keeping hidden ones", async () => {
    const result = await glob.execute({ pattern: "**/*.ts" }, testContext(ws.dir));
    expect(result.output.split("\n")).toEqual(["src/app.ts", "src/util.ts", "src/nested/deep.ts"]);
    const all = await glob.execute({ pattern: "*" }, testContext(ws.dir));
    const files = all.output.split("\n");
    expect(files).toContain(".config/settings.json");
    expect(files).toContain("keep.log");
    for (const hidden of ["debug.log", "dist/bundle.js", ".git/config", "scratch/notes.txt", "link.ts", "src/nested/generated.ts"]) {
      expect(files).not.toContain(hidden);
    }
  });

  it("anchors patterns with a slash and expands braces", async () => {
    const result = await glob.execute({ pattern: "src/*.{ts,tsx}" }, testContext(ws.dir));
    expect(result.output.split("\n")).toEqual(["src/app.ts", "src/util.ts", "src/view.tsx"]);
  });

  it("searches below path and shows workspace-relative paths", async () => {
    const result = await glob.execute({ pattern: "*.ts", path: "src/nested" }, testContext(ws.dir));
    expect(result.output).toBe("src/nested/deep.ts");
    const absolute = await glob.execute({ pattern: path.join(ws.dir, "src", "*.tsx") }, testContext(ws.dir));
    expect(absolute.output).toBe("src/view.tsx");
  });

  it("limits to 100 with a note", async () => {
    for (let i = 0; i < 120; i++) await writeFile(path.join(ws.dir, `gen-${i}.txt`), "");
    const result = await glob.execute({ pattern: "gen-*.txt" }, testContext(ws.dir));
    expect(result.output.split("\n").filter((l) => l.startsWith("gen-"))).toHaveLength(100);
    expect(result.output).toContain("of 120 matching files");
    expect(result.metadata).toEqual({ count: 120, truncated: true });
  });

  it("says when nothing matched, and rejects empty patterns and missing folders", async () => {
    expect((await glob.execute({ pattern: "*.none" }, testContext(ws.dir))).output).toBe("No files found.");
    await expect(glob.execute({ pattern: " " }, testContext(ws.dir))).rejects.toBeInstanceOf(ToolInputError);
    await expect(glob.execute({ pattern: "*", path: "missing" }, testContext(ws.dir))).rejects.toThrow("File not found");
  });
});

it("both backends give the same results", async () => {
  for (const pattern of ["*", "**/*.ts", "src/**", "*.{json,md,log}", "!*.ts", "src/nested/*", "**/nested/**", "[rR]*.md"]) {
    const [a, b] = await Promise.all([
      backends.ripgrep.execute({ pattern }, testContext(ws.dir)),
      backends.node.execute({ pattern }, testContext(ws.dir)),
    ]);
    expect(b.output, pattern).toBe(a.output);
  }
});
