// Snapshot track() on a generated 20,000-file workspace — the first run (a new shadow repository,
// seeded from the workspace's index and objects) and an
// incremental run (one file changed) — against `git status` on the same tree, same run. The tree
// is a real git repository with everything committed, so `git status` does its usual full work:
// refresh the index against the files, walk for untracked files, compare with HEAD. The first run
// is also set against what it replaces: `git add -A` + `git write-tree` into an empty repository.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { Snapshots } from "@lathe/core";
import { committedSourceTree, git, gitEnv } from "./lib/git-workspace.ts";
import { medianMs, report } from "./lib/report.ts";

const run = promisify(execFile);
const FILES = 20_000;
/** First runs: two (the slower counts), and one of the naive baseline (which hashes all 20,000 files), keep the benchmark short. */
const FIRST_RUNS = 2;
const root = mkdtempSync(path.join(tmpdir(), "lathe-bench-snapshot-"));
const workspace = path.join(root, "ws");
const gitHere = (...args: string[]) => git(workspace, ...args);

try {
  await committedSourceTree(workspace, FILES);

  const status = () => gitHere("status", "--porcelain");
  // Settle the user's index (the first status after a commit rewrites it), then measure.
  const statusMs = await medianMs(status, 7, 2);

  let firstRuns = 0;
  const firstMs = await medianMs(
    async () => {
      const snapshots = new Snapshots({ workspace, dataDir: path.join(root, `data-first-${firstRuns++}`) });
      await snapshots.track();
    },
    FIRST_RUNS,
    0,
  );

  // What a naive engine would do on its first run: stage everything into an empty repository.
  let addRuns = 0;
  const addAllMs = await medianMs(
    async () => {
      const gitDir = path.join(root, `add-all-${addRuns++}`);
      await run("git", [`--git-dir=${gitDir}`, "init", "-q"], { env: gitEnv });
      await run("git", [`--git-dir=${gitDir}`, `--work-tree=${workspace}`, "add", "-A"], { cwd: workspace, env: gitEnv });
      await run("git", [`--git-dir=${gitDir}`, `--work-tree=${workspace}`, "write-tree"], { cwd: workspace, env: gitEnv });
    },
    1,
    0,
  );

  const snapshots = new Snapshots({ workspace, dataDir: path.join(root, "data") });
  await snapshots.track();
  let edits = 0;
  const changed = path.join(workspace, "pkg3", "mod7", "file11.ts");
  const incrementalMs = await medianMs(async () => {
    writeFileSync(changed, `export const edited = ${edits++};\n`);
    await snapshots.track();
  }, 9, 2);
  const unchangedMs = await medianMs(() => snapshots.track(), 9, 1);
  const statusAfterMs = await medianMs(status, 7, 1);
  const baselineMs = Math.min(statusMs, statusAfterMs);

  report(import.meta.url, [
    { name: `track() first run, ${FILES.toLocaleString("en")} files`, value: firstMs, baseline: "git status", baselineValue: baselineMs, note: "a new shadow repository, seeded from the workspace's index and objects (before issue 20 it hashed every file)" },
    { name: "track() first run, same tree", value: firstMs, baseline: "git add -A + write-tree into an empty repository", baselineValue: addAllMs },
    { name: "track() incremental, one file changed", value: incrementalMs, baseline: "git status", baselineValue: baselineMs, target: "≤ 3×" },
    { name: "track() nothing changed", value: unchangedMs, baseline: "git status", baselineValue: baselineMs },
  ]);
} finally {
  rmSync(root, { recursive: true, force: true });
}
