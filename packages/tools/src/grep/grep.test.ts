import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ToolInputError } from "../errors.js";
import { writeSearchFixture } from "../search/search-fixture.js";
import { tempWorkspace, testContext } from "../test-context.js";
import { createGrepTool } from "./grep.js";

const backends = { ripgrep: createGrepTool({ ripgrep: "/usr/bin/rg" }), node: createGrepTool({ ripgrep: false }) };
let ws: Awaited<ReturnType<typeof tempWorkspace>>;
beforeEach(async () => {
  ws = await tempWorkspace();
  await writeSearchFixture(ws.dir);
});
afterEach(async () => ws.cleanup());

describe.each(Object.entries(backends))("grep (%s)", (_, grep) => {
  it("groups matches by file, newest first, and respects .gitignore, binary files and .git", async () => {
    const result = await grep.execute({ pattern: "TODO" }, testContext(ws.dir));
    expect(result.output).toBe(
      [
        "Found 7 matches in 7 files",
        "README.md:\n  Line 2: TODO: write docs",
        "keep.log:\n  Line 1: TODO kept log",
        "src/app.ts:\n  Line 2:   // TODO: start",
        "src/util.ts:\n  Line 1: export const todo = 'TODO';",
        "src/view.tsx:\n  Line 1: // TODO view",
        "src/nested/deep.ts:\n  Line 1: function deep() { /* TODO deep */ }",
        '.config/settings.json:\n  Line 1: { "todo": "TODO hidden" }',
      ].join("\n\n"),
    );
    expect(result.metadata).toEqual({ matches: 7, files: 7, truncated: false });
  });

  it("filters with include and searches below path or in one file", async () => {
    const ts = await grep.execute({ pattern: "function \\w+", include: "*.ts" }, testContext(ws.dir));
    expect(ts.output).toContain("src/app.ts:\n  Line 1: export function main() {");
    expect(ts.output).toContain("src/nested/deep.ts:");
    expect(ts.metadata?.files).toBe(3);
    const nested = await grep.execute({ pattern: "TODO", path: "src/nested" }, testContext(ws.dir));
    expect(nested.metadata?.files).toBe(1);
    const one = await grep.execute({ pattern: "return", path: "src/app.ts" }, testContext(ws.dir));
    expect(one.output).toBe("Found 1 match in 1 file\n\nsrc/app.ts:\n  Line 3:   return 1;");
  });

  it("supports (?i) and anchors", async () => {
    const result = await grep.execute({ pattern: "(?i)^export const todo" }, testContext(ws.dir));
    expect(result.metadata?.matches).toBe(1);
  });

  it("reports no matches and rejects invalid regexes", async () => {
    expect((await grep.execute({ pattern: "NOPE_NOT_HERE" }, testContext(ws.dir))).output).toBe("No matches found.");
    await expect(grep.execute({ pattern: "(unclosed" }, testContext(ws.dir))).rejects.toBeInstanceOf(ToolInputError);
  });

  it("limits to 100 matching lines with a note", async () => {
    const { writeFile } = await import("node:fs/promises");
    await writeFile(`${ws.dir}/many.txt`, Array.from({ length: 150 }, (_, i) => `hit ${i}`).join("\n"));
    const result = await grep.execute({ pattern: "^hit" }, testContext(ws.dir));
    expect(result.output.match(/Line \d+:/g)).toHaveLength(100);
    expect(result.output).toContain("Found 150 matches in 1 files (showing the first 100");
    expect(result.metadata).toEqual({ matches: 150, files: 1, truncated: true });
  });
});

it("both backends give the same results", async () => {
  for (const [pattern, include] of [
    ["TODO", undefined],
    ["todo", "*.{ts,json}"],
    ["^export", "src/**"],
    ["\\(\\)", undefined],
    ["o", "!*.ts"],
    // Look-around and backreferences: ripgrep runs these with PCRE2, as a JavaScript RegExp would.
    ["export (?=function)", undefined],
    ["(TODO).*\\1", undefined],
  ] as const) {
    const [a, b] = await Promise.all([
      backends.ripgrep.execute({ pattern, include }, testContext(ws.dir)),
      backends.node.execute({ pattern, include }, testContext(ws.dir)),
    ]);
    expect(b.output, `${pattern} ${include}`).toBe(a.output);
  }
});

describe("grep over files whose reads would block", () => {
  it("skips FIFOs and size-less files instead of waiting on them", async () => {
    mkdirSync(join(ws.dir, "fifo"));
    writeFileSync(join(ws.dir, "fifo", "a.txt"), "needle here\n");
    execFileSync("mkfifo", [join(ws.dir, "fifo", "pipe")]);
    for (const grep of Object.values(backends)) {
      const result = await grep.execute({ pattern: "needle", path: "fifo" }, testContext(ws.dir));
      expect(result.output).toContain("a.txt");
    }
    // A /proc file has no size, and a read of /proc/kmsg never returns: the Node search skips them.
    const proc = await backends.node.execute({ pattern: "needle", path: "/proc/self" }, testContext(ws.dir));
    expect(proc.output).toMatch(/No matches|Found/);
  }, 30_000);
});
