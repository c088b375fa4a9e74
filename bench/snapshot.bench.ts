// Snapshot track() on a generated 20,000-file workspace — the first run (hashes everything) and an
// incremental run (one file changed) — against `git status` on the same tree, same run. The tree
// is a real git repository with everything committed, so `git status` does its usual full work:
// refresh the index against the files, walk for untracked files, compare with HEAD. The first run
// is also set against what it replaces: `git add -A` + `git write-tree` into an empty repository.
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { Snapshots } from "@lathe/core";
import { medianMs, report } from "./lib/report.ts";

const run = promisify(execFile);
const FILES = 20_000;
/** First runs hash 20,000 files each: two (the slower counts), and one of the naive baseline, keep the benchmark near a minute. */
const FIRST_RUNS = 2;
const root = mkdtempSync(path.join(tmpdir(), "lathe-bench-snapshot-"));
const workspace = path.join(root, "ws");
const env = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_AUTHOR_NAME: "bench",
  GIT_AUTHOR_EMAIL: "bench@example.invalid",
  GIT_COMMITTER_NAME: "bench",
  GIT_COMMITTER_EMAIL: "bench@example.invalid",
};
const git = (...args: string[]) => run("git", args, { cwd: workspace, env, maxBuffer: 64 * 1024 * 1024 });

try {
  let made = 0;
  for (let a = 0; made < FILES; a++) {
    for (let b = 0; b < 20 && made < FILES; b++) {
      const dir = path.join(workspace, `pkg${a}`, `mod${b}`);
      mkdirSync(dir, { recursive: true });
      for (let c = 0; c < 25 && made < FILES; c++, made++) {
        const lines = Array.from({ length: 30 }, (_, i) => `export const v${i} = ${made * i}; // file ${made} line ${i}`);
        writeFileSync(path.join(dir, `file${c}.ts`), lines.join("\n"));
      }
    }
  }
  writeFileSync(path.join(workspace, ".gitignore"), "*.log\n");
  await git("init", "-q");
  await git("add", "-A");
  await git("commit", "-q", "-m", "bench tree");

  const status = () => git("status", "--porcelain");
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
      await run("git", [`--git-dir=${gitDir}`, "init", "-q"], { env });
      await run("git", [`--git-dir=${gitDir}`, `--work-tree=${workspace}`, "add", "-A"], { cwd: workspace, env });
      await run("git", [`--git-dir=${gitDir}`, `--work-tree=${workspace}`, "write-tree"], { cwd: workspace, env });
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
    { name: `track() first run, ${FILES.toLocaleString("en")} files`, value: firstMs, baseline: "git status", baselineValue: baselineMs, note: "hashes and stores every file" },
    { name: "track() first run, same tree", value: firstMs, baseline: "git add -A + write-tree into an empty repository", baselineValue: addAllMs },
    { name: "track() incremental, one file changed", value: incrementalMs, baseline: "git status", baselineValue: baselineMs, target: "≤ 3×" },
    { name: "track() nothing changed", value: unchangedMs, baseline: "git status", baselineValue: baselineMs },
  ]);
} finally {
  rmSync(root, { recursive: true, force: true });
}
