import { existsSync } from "node:fs";
import { readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SandboxUnavailableError, ToolInputError } from "../errors.js";
import { tempWorkspace, testContext } from "../test-context.js";
import { readTool } from "../read/read.js";
import { bashTool, createBashTool } from "./bash.js";

let ws: Awaited<ReturnType<typeof tempWorkspace>>;
beforeEach(async () => {
  ws = await tempWorkspace();
});
afterEach(async () => ws.cleanup());

function groupGone(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}

describe("bash", () => {
  it("runs a command with stdout and stderr together and reports the exit code", async () => {
    const ctx = testContext(ws.dir);
    const result = await bashTool.execute({ command: "echo out; echo err 1>&2; exit 3", description: "test" }, ctx);
    expect(result.output).toContain("out");
    expect(result.output).toContain("err");
    expect(result.output).toContain("Exit code 3");
    expect(result.metadata).toMatchObject({ exit: 3, timedOut: false, aborted: false, sandbox: "none" });
    const ok = await bashTool.execute({ command: "pwd" }, ctx);
    expect(ok.output).toBe(ws.dir + "\n");
    expect(ok.metadata?.exit).toBe(0);
  });

  it("asks bash permission from the command analysis and runs nothing when denied", async () => {
    const ctx = testContext(ws.dir, { decide: (r) => (r.permission === "bash" ? Promise.reject(new Error("denied")) : undefined) });
    await expect(bashTool.execute({ command: "touch made && git status" }, ctx)).rejects.toThrow("denied");
    expect(ctx.asks[0]).toMatchObject({ permission: "bash", patterns: ["touch made", "git status"], always: ["touch *", "git status *"] });
    expect(existsSync(path.join(ws.dir, "made"))).toBe(false);
  });

  it("asks external_directory for a workdir outside the workspace and refuses a missing workdir", async () => {
    const ctx = testContext(ws.dir);
    await bashTool.execute({ command: "true", workdir: "/" }, ctx);
    expect(ctx.asks[0]).toMatchObject({ permission: "external_directory", patterns: ["/*"] });
    await expect(bashTool.execute({ command: "true", workdir: "nope" }, ctx)).rejects.toThrow("File not found");
    await expect(bashTool.execute({ command: "  " }, ctx)).rejects.toBeInstanceOf(ToolInputError);
  });

  it("streams output through ctx.metadata while the command runs", async () => {
    const ctx = testContext(ws.dir);
    const running = bashTool.execute({ command: "echo first; sleep 0.5; echo second" }, ctx);
    await sleep(300);
    expect(ctx.progress.some((p) => String(p.metadata?.output).includes("first") && !String(p.metadata?.output).includes("second"))).toBe(true);
    const result = await running;
    expect(result.output).toBe("first\nsecond\n");
  });

  it("stops a command that times out, with its whole process group", async () => {
    const ctx = testContext(ws.dir);
    const started = Date.now();
    const result = await createBashTool({ killGraceMs: 500 }).execute({ command: "echo $$; sleep 30 & sleep 30; echo never", timeout: 300 }, ctx);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(result.metadata).toMatchObject({ timedOut: true, exit: null });
    expect(result.output).toContain("timed out after 300 ms");
    expect(result.output).not.toContain("never");
    expect(groupGone(Number(result.output.split("\n")[0]))).toBe(true);
  });

  it("kills every process of the group on abort, even children that ignore SIGTERM", async () => {
    const ctx = testContext(ws.dir);
    const command = "echo $$; (trap '' TERM; sleep 60) & (sleep 60 & wait) & bash -c 'sleep 60' & wait";
    const running = createBashTool({ killGraceMs: 300 }).execute({ command }, ctx);
    let pgid = 0;
    for (let i = 0; i < 100 && !pgid; i++) {
      await sleep(20);
      pgid = Number(ctx.progress.map((p) => p.metadata?.pid).find(Boolean) ?? 0);
    }
    expect(pgid).toBeGreaterThan(0);
    await sleep(200);
    expect(groupGone(pgid)).toBe(false);
    ctx.controller.abort();
    const result = await running;
    expect(result.metadata).toMatchObject({ aborted: true });
    expect(result.output).toContain("aborted");
    expect(groupGone(pgid)).toBe(true);
  });

  it("cuts a 10 MB output to its end within the limits and keeps the full text for read", async () => {
    const ctx = testContext(ws.dir);
    const result = await bashTool.execute({ command: "for i in $(seq 1 100000); do printf 'line %06d %s\\n' $i xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx; done" }, ctx);
    expect(Buffer.byteLength(result.output)).toBeLessThan(52 * 1024);
    expect(result.output).toContain("line 100000");
    expect(result.output).not.toContain("line 000001 ");
    expect(result.output).toMatch(/output truncated: \d+ bytes not shown/);
    expect(result.metadata?.truncated).toBe(true);
    const full = result.metadata!.outputPath!;
    expect(full.startsWith(ctx.dataDir!)).toBe(true);
    expect((await stat(full)).size).toBeGreaterThan(10_000_000);
    expect((await readFile(full, "utf8")).startsWith("line 000001 ")).toBe(true);
    // The kept output is in reach of the read tool without an external_directory ask.
    const asked = ctx.asks.length;
    const rest = await readTool.execute({ path: full, offset: 2, limit: 1 }, ctx);
    expect(rest.output).toContain("line 000002 ");
    expect(ctx.asks.slice(asked).map((a) => a.permission)).toEqual(["read"]);
  }, 60_000);

  it("fails clearly when the sandbox cannot run, and falls back only when allowed", async () => {
    const missing = createBashTool({ sandbox: { type: "bwrap", path: "/nonexistent/bwrap" } });
    await expect(missing.execute({ command: "true" }, testContext(ws.dir))).rejects.toBeInstanceOf(SandboxUnavailableError);
    const fallback = createBashTool({ sandbox: { type: "bwrap", path: "/nonexistent/bwrap", allowUnsandboxed: true } });
    const result = await fallback.execute({ command: "echo hi" }, testContext(ws.dir));
    expect(result.metadata).toMatchObject({ exit: 0, sandbox: "none" });
  });
});

const bwrapWorks = existsSync("/usr/bin/bwrap") && process.platform === "linux";
describe.runIf(bwrapWorks)("bash in the bwrap sandbox", () => {
  it("writes in the workspace only, and has no network unless allowed", async () => {
    const tool = createBashTool({ sandbox: { type: "bwrap" } });
    const ctx = testContext(ws.dir);
    await writeFile(path.join(ws.dir, "in.txt"), "x");
    const result = await tool.execute({ command: "echo ok > inside.txt && touch /usr/lathe-escape 2>/dev/null; echo rc=$?; grep -c : /proc/net/dev" }, ctx);
    expect(result.metadata?.sandbox).toBe("bwrap");
    expect(await readFile(path.join(ws.dir, "inside.txt"), "utf8")).toBe("ok\n");
    expect(existsSync("/usr/lathe-escape")).toBe(false);
    expect(result.output).toMatch(/rc=1/);
    // Only the loopback interface in a fresh network namespace. (touch's complaint goes to /dev/null:
    // stderr and stdout are merged in no fixed order, so it could land after the count.)
    expect(result.output.trim()).toMatch(/1$/);
    const networked = await createBashTool({ sandbox: { type: "bwrap", network: true } }).execute({ command: "grep -c : /proc/net/dev" }, ctx);
    expect(Number(networked.output.trim())).toBeGreaterThanOrEqual(1);
  });
});
