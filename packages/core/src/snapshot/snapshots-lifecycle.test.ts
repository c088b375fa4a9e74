import { spawn } from "node:child_process";
import { existsSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { GitCommandError, GitNotFoundError, SnapshotLockTimeoutError, SnapshotNotFoundError, SnapshotsDisabledError } from "./errors.js";
import { LOCK_FILE, queuedRepositories, withRepositoryLock } from "./repository-lock.js";
import { Snapshots } from "./snapshots.js";
import { pictureOf, sh, TempDirs } from "./test-workspace.js";

const temp = new TempDirs();
afterEach(() => temp.cleanup());

describe("Snapshots: two agents on one workspace", () => {
  it("serialises concurrent operations of two instances; the shadow repository stays sound", async () => {
    const ws = temp.make();
    const dataDir = temp.make("lathe-data-");
    const first = new Snapshots({ workspace: ws, dataDir });
    const second = new Snapshots({ workspace: ws, dataDir });
    expect(second.gitDir).toBe(first.gitDir);
    for (let i = 0; i < 50; i++) writeFileSync(join(ws, `f${i}.txt`), `initial ${i}\n`);
    const base = await first.track();

    const work: Array<Promise<unknown>> = [];
    for (let round = 0; round < 8; round++) {
      writeFileSync(join(ws, `f${round}.txt`), `round ${round}\n`);
      work.push(first.track(), second.track(), second.changedFiles(base), first.diff(base));
    }
    const results = await Promise.all(work);
    const trees = results.filter((result): result is string => typeof result === "string");
    expect(trees).toHaveLength(16);

    const final = await first.track();
    expect(await second.track()).toBe(final);
    expect(await first.changedFiles(base, final)).toEqual(["f0.txt", "f1.txt", "f2.txt", "f3.txt", "f4.txt", "f5.txt", "f6.txt", "f7.txt"]);
    // Every tree either instance returned can be restored by the other.
    const picture = pictureOf(ws);
    await second.restore(base);
    await first.restore(final);
    expect(pictureOf(ws)).toEqual(picture);
    // fsck exits non-zero (and sh throws) on any corruption; stdout lists missing or broken objects.
    expect(sh(ws, `git --git-dir='${first.gitDir}' fsck --strict --no-dangling --no-progress 2>/dev/null`)).toBe("");
    expect(existsSync(join(first.gitDir, LOCK_FILE))).toBe(false);
    // The queue entry goes once the last operation has settled (a tick after its caller resumes).
    await new Promise((resolve) => setImmediate(resolve));
    expect(queuedRepositories()).toBe(0);
  });

  it("waits for a lock held by another process and takes it over once that process is gone", async () => {
    const ws = temp.make();
    const snapshots = new Snapshots({ workspace: ws, dataDir: temp.make("lathe-data-") });
    await snapshots.track();
    const holder = spawn("sleep", ["0.6"], { stdio: "ignore" });
    const exited = new Promise((resolve) => holder.on("exit", resolve));
    writeFileSync(join(snapshots.gitDir, LOCK_FILE), `${holder.pid} ${(await import("node:os")).hostname()} ${Date.now()}`);
    const started = Date.now();
    writeFileSync(join(ws, "a"), "1");
    const tree = await snapshots.track();
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
    await exited;
    expect(await snapshots.changedFiles(tree)).toEqual([]);
  });

  it("times out with a typed error when a live holder keeps the lock", async () => {
    const gitDir = temp.make("lathe-lock-");
    writeFileSync(join(gitDir, LOCK_FILE), `${process.pid} ${(await import("node:os")).hostname()} ${Date.now()}`);
    const error = await withRepositoryLock(gitDir, async () => "ran", { timeoutMs: 150, staleMs: 60_000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SnapshotLockTimeoutError);
    expect((error as SnapshotLockTimeoutError).lockPath).toBe(join(gitDir, LOCK_FILE));
    // A lock older than staleMs is taken over even though its owner lives.
    utimesSync(join(gitDir, LOCK_FILE), new Date(Date.now() - 120_000), new Date(Date.now() - 120_000));
    expect(await withRepositoryLock(gitDir, async () => "ran", { timeoutMs: 1_000, staleMs: 60_000 })).toBe("ran");
  });

  it("runs queued operations in order, and a failing one does not block the next", async () => {
    const gitDir = temp.make("lathe-lock-");
    const order: string[] = [];
    const slow = withRepositoryLock(gitDir, async () => {
      await new Promise((resolve) => setTimeout(resolve, 50));
      order.push("slow");
    });
    const failing = withRepositoryLock(gitDir, async () => {
      order.push("failing");
      throw new Error("boom");
    });
    const last = withRepositoryLock(gitDir, async () => order.push("last"));
    await slow;
    await expect(failing).rejects.toThrow("boom");
    await last;
    expect(order).toEqual(["slow", "failing", "last"]);
  });
});

describe("Snapshots: switching off, gc and failures", () => {
  it("when disabled, says so and refuses every operation without creating a repository", async () => {
    const ws = temp.make();
    const snapshots = new Snapshots({ workspace: ws, dataDir: temp.make("lathe-data-"), enabled: false });
    expect(snapshots.enabled).toBe(false);
    const tree = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";
    for (const call of [() => snapshots.track(), () => snapshots.changedFiles(tree), () => snapshots.diff(tree), () => snapshots.restore(tree), () => snapshots.revertFiles(tree, ["a"]), () => snapshots.gc()]) {
      await expect(call()).rejects.toBeInstanceOf(SnapshotsDisabledError);
    }
    expect(existsSync(snapshots.gitDir)).toBe(false);
  });

  it("gc runs at most once per interval unless forced", async () => {
    const ws = temp.make();
    const snapshots = new Snapshots({ workspace: ws, dataDir: temp.make("lathe-data-"), gcIntervalMs: 60_000 });
    writeFileSync(join(ws, "a"), "1");
    const tree = await snapshots.track();
    expect(await snapshots.gc()).toBe(false);
    expect(await snapshots.gc({ force: true })).toBe(true);
    expect(await snapshots.gc()).toBe(false);
    expect(await snapshots.changedFiles(tree)).toEqual([]);
    const due = new Snapshots({ workspace: ws, dataDir: temp.make("lathe-data-"), gcIntervalMs: 1 });
    await due.track();
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await due.gc()).toBe(true);
  });

  it("gc drops snapshots older than keepForMs and keeps recent ones with everything they reference", async () => {
    const ws = temp.make();
    const snapshots = new Snapshots({ workspace: ws, dataDir: temp.make("lathe-data-"), gcIntervalMs: 0, keepForMs: 7 * 24 * 3600_000 });
    writeFileSync(join(ws, "a"), "old content\n");
    writeFileSync(join(ws, "shared"), "shared content\n");
    const old = await snapshots.track();
    // Age every object by a month, as if `old` had been taken then.
    const month = new Date(Date.now() - 30 * 24 * 3600_000);
    const objects = join(snapshots.gitDir, "objects");
    for (const dir of readdirSync(objects).filter((name) => /^[0-9a-f]{2}$/.test(name))) {
      for (const file of readdirSync(join(objects, dir))) utimesSync(join(objects, dir, file), month, month);
    }
    writeFileSync(join(ws, "a"), "recent content\n");
    const recent = await snapshots.track();
    writeFileSync(join(ws, "a"), "current content\n");
    await snapshots.track();

    expect(await snapshots.gc({ force: true })).toBe(true);
    await expect(snapshots.restore(old)).rejects.toBeInstanceOf(SnapshotNotFoundError);
    await snapshots.restore(recent);
    expect(pictureOf(ws)).toEqual(
      new Map([
        ["a", `file:-:${Buffer.from("recent content\n").toString("base64")}`],
        ["shared", `file:-:${Buffer.from("shared content\n").toString("base64")}`],
      ]),
    );
  });

  it("reports a missing git executable with GitNotFoundError", async () => {
    const ws = temp.make();
    const snapshots = new Snapshots({ workspace: ws, dataDir: temp.make("lathe-data-"), gitPath: "/nonexistent/bin/git" });
    const error = await snapshots.track().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GitNotFoundError);
    expect((error as GitNotFoundError).gitPath).toBe("/nonexistent/bin/git");
  });

  it("reports a workspace that has disappeared as a failed command, not as missing git", async () => {
    const ws = temp.make();
    const snapshots = new Snapshots({ workspace: ws, dataDir: temp.make("lathe-data-") });
    await snapshots.track();
    rmSync(ws, { recursive: true });
    const error = await snapshots.track().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GitCommandError);
    expect((error as GitCommandError).stderr).toContain("does not exist");
  });

  it("reports a failing git command with GitCommandError carrying git's stderr", async () => {
    const ws = temp.make();
    const snapshots = new Snapshots({ workspace: ws, dataDir: temp.make("lathe-data-") });
    writeFileSync(join(ws, "a"), "1");
    await snapshots.track();
    writeFileSync(join(snapshots.gitDir, "index"), "this is not an index");
    const error = await snapshots.track().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GitCommandError);
    const failure = error as GitCommandError;
    expect(failure.exitCode).not.toBe(0);
    expect(failure.stderr).toMatch(/index/);
    expect(failure.message).toContain(failure.stderr);
    expect(statSync(join(ws, "a")).size).toBe(1);
  });
});
