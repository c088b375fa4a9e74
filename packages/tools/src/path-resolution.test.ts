import { mkdir, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createApplyPatchTool } from "./apply-patch/apply-patch.js";
import { createBashTool } from "./bash/bash.js";
import { createEditTool } from "./edit/edit.js";
import { createGlobTool } from "./glob/glob.js";
import { createGrepTool } from "./grep/grep.js";
import { createListTool } from "./list/list.js";
import { createMultiEditTool } from "./multiedit/multiedit.js";
import { realpathLoose, SymlinkLoopError } from "./path-resolution.js";
import { createReadTool } from "./read/read.js";
import { tempWorkspace, testContext } from "./test-context.js";
import type { Tool } from "./tool.js";
import { createWriteTool } from "./write/write.js";

let ws: Awaited<ReturnType<typeof tempWorkspace>>;
beforeEach(async () => {
  ws = await tempWorkspace();
});
afterEach(async () => ws.cleanup());

describe("realpathLoose", () => {
  it("resolves the longest existing prefix, then appends the rest; follows dangling links; stops at loops", async () => {
    await mkdir(path.join(ws.dir, "real/sub"), { recursive: true });
    await symlink(path.join(ws.dir, "real"), path.join(ws.dir, "link"));
    await symlink("/nonexistent-lathe-target/file", path.join(ws.dir, "dangling"));
    await symlink("loop2", path.join(ws.dir, "loop1"));
    await symlink("loop1", path.join(ws.dir, "loop2"));
    expect(await realpathLoose(path.join(ws.dir, "link/sub/new/deeper"))).toBe(path.join(ws.dir, "real/sub/new/deeper"));
    expect(await realpathLoose(path.join(ws.dir, "dangling"))).toBe("/nonexistent-lathe-target/file");
    expect(await realpathLoose(path.join(ws.dir, "dangling/more"))).toBe("/nonexistent-lathe-target/file/more");
    await expect(realpathLoose(path.join(ws.dir, "loop1/x"))).rejects.toBeInstanceOf(SymlinkLoopError);
  });

  it("answers a 1 MB path and a path of 100,000 components in milliseconds", async () => {
    for (const tail of ["x".repeat(1024 * 1024), "a/".repeat(100_000)]) {
      const started = performance.now();
      await realpathLoose(path.join(ws.dir, tail));
      expect(performance.now() - started).toBeLessThan(500);
    }
  });
});

const tools: Array<[Tool, (p: string) => Record<string, unknown>]> = [
  [createReadTool(), (p) => ({ path: p })],
  [createWriteTool(), (p) => ({ path: p, content: "x" })],
  [createEditTool(), (p) => ({ path: p, oldString: "a", newString: "b" })],
  [createMultiEditTool(), (p) => ({ path: p, edits: [{ oldString: "a", newString: "b" }] })],
  [createApplyPatchTool(), (p) => ({ patchText: `*** Begin Patch\n*** Add File: ${p}\n+x\n*** End Patch` })],
  [createListTool(), (p) => ({ path: p })],
  [createGlobTool({ ripgrep: false }), (p) => ({ pattern: "*", path: p })],
  [createGrepTool({ ripgrep: false }), (p) => ({ pattern: "x", path: p })],
  [createBashTool(), (p) => ({ command: "true", workdir: p })],
];

describe("bad paths, every tool", () => {
  it.each(tools.map(([tool, input]) => [tool.name, tool, input] as const))("%s refuses them in milliseconds", async (_name, tool, input) => {
    await symlink("loop2", path.join(ws.dir, "loop1"));
    await symlink("loop1", path.join(ws.dir, "loop2"));
    for (const [bad, message] of [
      ["x".repeat(1024 * 1024), /longer than/],
      ["a/".repeat(100_000) + "f", /longer than/],
      ["loop1/x", /loop/],
      ["a\0b", /NUL/],
      ["bad-\ud800-name", /not valid Unicode/],
    ] as const) {
      const started = performance.now();
      await expect(tool.execute(input(bad) as never, testContext(ws.dir))).rejects.toThrow(message);
      expect(performance.now() - started).toBeLessThan(500);
    }
  });
});

describe("a file swapped for a symlink after the check", () => {
  it("read opens without following it", async () => {
    const { openResolved } = await import("./path-resolution.js");
    await writeFile(path.join(ws.dir, "secret"), "s");
    await symlink(path.join(ws.dir, "secret"), path.join(ws.dir, "swapped"));
    await expect(openResolved(path.join(ws.dir, "swapped"))).rejects.toMatchObject({ code: "ELOOP" });
    await mkdir(path.join(ws.dir, "real"));
    await writeFile(path.join(ws.dir, "real/f"), "f");
    await symlink(path.join(ws.dir, "real"), path.join(ws.dir, "dirlink"));
    await expect(openResolved(path.join(ws.dir, "dirlink/f"))).rejects.toMatchObject({ code: "ESYMLINKCHANGED" });
  });
});
