import { mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLsp, type LspOptions } from "./index.js";
import { editTool } from "@lathe/tools";
import { alive, waitGone } from "./test-processes.js";
import { workspace } from "./workspace.test-support.js";

const fake = fileURLToPath(new URL("./fixtures/fake-server.mjs", import.meta.url));
const fakeServer = (mode: "ok" | "crash" | "hang") => ({ command: [process.execPath, fake, mode], extensions: [".fake"] });

let dir: string;
beforeAll(async () => {
  dir = await realpath(await mkdtemp(path.join(tmpdir(), "lathe-lsp-faults-")));
  await writeFile(path.join(dir, "a.fake"), "fine\nBAD\n");
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

function lsp(mode: "ok" | "crash" | "hang", options: LspOptions = {}) {
  return createLsp({ servers: { typescript: false, pyright: false, gopls: false, "rust-analyzer": false, fake: fakeServer(mode) }, restartDelayMs: 50, ...options });
}

describe("language server faults", () => {
  it("reports a working server's diagnostics, 1-based, and starts nothing before a file is touched", async () => {
    const servers = lsp("ok");
    expect(servers.pids()).toEqual([]);
    const report = await servers.sync([path.join(dir, "a.fake")], { cwd: dir });
    expect(report.files[path.join(dir, "a.fake")]).toEqual([
      expect.objectContaining({ line: 2, column: 1, severity: "error", message: "BAD is not allowed here", code: "bad" }),
    ]);
    expect(report.notes).toEqual([]);
    const [pid] = servers.pids();
    await servers.close();
    expect(alive(pid!)).toBe(false);
  });

  it("a server that crashes on start is restarted once, then switched off with a note carrying its stderr", async () => {
    const servers = lsp("crash");
    const file = path.join(dir, "a.fake");
    const first = await servers.sync([file], { cwd: dir });
    expect(first.notes.join("\n")).toMatch(/fake language server exited \(code 3\).*boom, cannot start.*will be restarted/s);
    await new Promise((resolve) => setTimeout(resolve, 60));
    const second = await servers.sync([file], { cwd: dir });
    expect(second.notes.join("\n")).toMatch(/failed 2 times and is switched off for this session/);
    const third = await servers.sync([file], { cwd: dir });
    expect(third).toEqual({ files: {}, before: {}, notes: [] });
    await servers.close();
  });

  it("a server that never answers costs a tool at most the bound, then counts as failed", async () => {
    const servers = lsp("hang", { timeoutMs: 600, startTimeoutMs: 1000 });
    const started = Date.now();
    const report = await servers.sync([path.join(dir, "a.fake")], { cwd: dir });
    expect(Date.now() - started).toBeLessThan(1500);
    expect(report.notes.join("\n")).toMatch(/still starting/);
    const [pid] = servers.pids();
    expect(alive(pid!)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 1200));
    const later = await servers.sync([path.join(dir, "a.fake")], { cwd: dir });
    expect(later.notes.join("\n")).toMatch(/did not answer within 1000 ms; it will be restarted/);
    expect(alive(pid!)).toBe(false);
    await servers.close();
  });

  it("an edit with a hung server returns within the bound, its change made, with a note", async () => {
    const servers = lsp("hang", { timeoutMs: 500, startTimeoutMs: 20_000 });
    const ws = await workspace(servers, { "b.fake": "one\n" });
    const started = Date.now();
    const result = await editTool.execute({ path: "b.fake", oldString: "one", newString: "two" }, ws.ctx);
    expect(Date.now() - started).toBeLessThan(1500);
    expect(result.output).toMatch(/^Edited b\.fake[^\n]*\n\nNote: The fake language server is still starting/);
    expect(await ws.read("b.fake")).toBe("two\n");
    await servers.close();
    await ws.cleanup();
  });

  it("abort ends the wait at once", async () => {
    const servers = lsp("hang", { timeoutMs: 10_000, startTimeoutMs: 20_000 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const started = Date.now();
    await servers.sync([path.join(dir, "a.fake")], { cwd: dir, signal: controller.signal });
    expect(Date.now() - started).toBeLessThan(1000);
    const [pid] = servers.pids();
    expect(alive(pid!)).toBe(true);
    await servers.close();
    expect(await waitGone([pid!], 2000)).toEqual([]);
  });

  it("a server killed mid-session is restarted once with its files, then switched off when killed again", async () => {
    const servers = lsp("ok");
    const file = path.join(dir, "a.fake");
    await servers.sync([file], { cwd: dir });
    const [first] = servers.pids();
    process.kill(first!, "SIGKILL");
    await new Promise((resolve) => setTimeout(resolve, 100));
    const after = await servers.sync([file], { cwd: dir });
    expect(after.notes.join("\n")).toMatch(/exited unexpectedly \(SIGKILL\).*will be restarted/);
    const again = await servers.sync([file], { cwd: dir });
    expect(again.files[file]).toHaveLength(1);
    const [second] = servers.pids();
    expect(second).not.toBe(first);
    process.kill(second!, "SIGKILL");
    await new Promise((resolve) => setTimeout(resolve, 100));
    const off = await servers.sync([file], { cwd: dir });
    expect(off.notes.join("\n")).toMatch(/switched off for this session/);
    expect(servers.pids()).toEqual([]);
    await servers.close();
  });

  it("a host server whose program is missing is simply not used", async () => {
    const servers = createLsp({ servers: { fake: { command: ["no-such-language-server-here"], extensions: [".fake"] } } });
    const report = await servers.sync([path.join(dir, "a.fake")], { cwd: dir });
    expect(report).toEqual({ files: {}, before: {}, notes: [] });
    await servers.close();
  });

  it("refuses a malformed server config", () => {
    expect(() => createLsp({ servers: { fake: { command: [], extensions: ["fake"] } } })).toThrow();
  });
});
