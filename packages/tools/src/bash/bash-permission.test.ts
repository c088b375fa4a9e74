import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tempWorkspace, testContext } from "../test-context.js";
import type { ToolPermissionRequest } from "../tool.js";
import { bashTool } from "./bash.js";

let ws: Awaited<ReturnType<typeof tempWorkspace>>;
let outside: string;
beforeEach(async () => {
  ws = await tempWorkspace();
  outside = await realpath(await mkdtemp(path.join(tmpdir(), "lathe-outside-")));
});
afterEach(async () => {
  await ws.cleanup();
  await rm(outside, { recursive: true, force: true });
});

class Refused extends Error {}
/** A context that records asks and refuses the bash ask, so nothing runs. */
const refusing = () => testContext(ws.dir, { decide: (r) => (r.permission === "bash" ? Promise.reject(new Refused("refused")) : undefined) });
const asked = (asks: ToolPermissionRequest[], permission: string) => asks.filter((a) => a.permission === permission).flatMap((a) => a.patterns);

describe("bash asks for paths where they really lead", () => {
  it("a symlink in the workspace that leads outside asks external_directory for its target", async () => {
    await writeFile(path.join(outside, "secret.txt"), "s");
    await symlink(path.join(outside, "secret.txt"), path.join(ws.dir, "link-out"));
    await symlink(outside, path.join(ws.dir, "link-dir"));
    const ctx = testContext(ws.dir);
    await bashTool.execute({ command: "cat link-out" }, ctx);
    expect(asked(ctx.asks, "external_directory")).toEqual([`${outside}/*`]);

    const copy = testContext(ws.dir);
    await writeFile(path.join(ws.dir, "f"), "x");
    await bashTool.execute({ command: "cp f link-dir/x" }, copy);
    expect(asked(copy.asks, "external_directory")).toEqual([`${outside}/*`]);
    expect(existsSync(path.join(outside, "x"))).toBe(true);
  });

  it("a redirection into a symlinked secrets/ folder is asked as edit secrets/…", async () => {
    await mkdir(path.join(ws.dir, "secrets"));
    await symlink(path.join(ws.dir, "secrets"), path.join(ws.dir, "innocent"));
    const ctx = testContext(ws.dir, { decide: (r) => (r.permission === "edit" ? Promise.reject(new Refused("no edits")) : undefined) });
    await expect(bashTool.execute({ command: "echo key > innocent/token" }, ctx)).rejects.toBeInstanceOf(Refused);
    expect(asked(ctx.asks, "edit")).toEqual(["secrets/token"]);
    expect(existsSync(path.join(ws.dir, "secrets", "token"))).toBe(false);
  });

  it("a redirection-only command is asked like any command, and truncates nothing when refused", async () => {
    await writeFile(path.join(ws.dir, "data.txt"), "keep me");
    const ctx = refusing();
    await expect(bashTool.execute({ command: "> data.txt" }, ctx)).rejects.toBeInstanceOf(Refused);
    expect(asked(ctx.asks, "bash")).toEqual(["> data.txt"]);
    const noEdits = testContext(ws.dir, { decide: (r) => (r.permission === "edit" ? Promise.reject(new Refused("no edits")) : undefined) });
    await expect(bashTool.execute({ command: "> data.txt" }, noEdits)).rejects.toBeInstanceOf(Refused);
    expect(asked(noEdits.asks, "edit")).toEqual(["data.txt"]);
    expect(await readFile(path.join(ws.dir, "data.txt"), "utf8")).toBe("keep me");
  });
});

describe("bash with hostile input: decided (asked) in bounded time, never an analysis error", () => {
  const deep = (n: number) => `echo ${"$(".repeat(n)}ls${")".repeat(n)}`;
  it.each([
    ["a 1 MB command", `echo ${"a".repeat(1024 * 1024)}`],
    ["10,000 operators", Array.from({ length: 10_000 }, (_, i) => `echo ${i}`).join(" && ")],
    ["unbalanced quotes", `echo "it's $(ls`],
    ["NUL bytes", "rm\0 -rf x"],
    ["invalid UTF-8 (lone surrogates)", "echo \uD800 \uDFFF \uFFFD"],
    ["deeply nested substitutions", deep(3000)],
    ["deeply nested subshells", `${"(".repeat(5000)}ls${")".repeat(5000)}`],
  ])("%s", async (_name, command) => {
    const ctx = refusing();
    const start = performance.now();
    await expect(bashTool.execute({ command }, ctx)).rejects.toBeInstanceOf(Refused);
    expect(performance.now() - start).toBeLessThan(10_000);
    const bash = ctx.asks.find((a) => a.permission === "bash");
    expect(bash?.patterns.length).toBeGreaterThan(0);
  }, 30_000);
});
