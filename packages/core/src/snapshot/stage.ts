// Stages the workspace into the shadow index and writes its tree.
//
// Instead of `git add -A` (which would hash and store a 1 GB file before we could say no), git
// lists only what differs from the index — new files not ignored, modified and deleted files — in
// one walk of the tree; the engine looks at the size of just those, and hands git the exact paths
// to record. An unchanged tree therefore costs one directory walk, about what `git status` costs,
// and the shadow index keeps the stat data that makes the next run as cheap.
import { lstat, stat } from "node:fs/promises";
import { basename, join } from "node:path";
import { writeExcludeFile } from "./exclude-file.js";
import type { ShadowRepository } from "./shadow-repository.js";
import { freshState, loadState, saveState } from "./snapshot-state.js";
import { fileStamp, workspaceExcludeFile } from "./workspace-excludes.js";
import { splitNul } from "./git-lines.js";
import { recordPaths, removeFromIndex } from "./shadow-index.js";
import { plantSeed, readWorkspaceSeed } from "./workspace-seed.js";

/** How many files are looked at concurrently. */
const STAT_BATCH = 256;

/** Lists the recorded files that the ignore rules cover. */
const IGNORED_CACHED = ["ls-files", "-z", "--cached", "--ignored", "--exclude-standard"];

/** What to do with one listed path. */
type Verdict = "add" | "remove" | "large";

/** Brings the shadow index in line with the workspace and returns the tree hash (`git write-tree`). */
export async function stageWorkspace(repo: ShadowRepository, maxFileSize: number): Promise<string> {
  // The repository is created while the workspace's own index is read (seeding writes only after).
  const creating = repo.ensureCreated();
  creating.catch(() => {}); // awaited below
  const stored = await loadState(repo.gitDir);
  const state = stored ?? freshState();
  // A new shadow repository of a git workspace starts from the workspace's index and objects.
  const fresh = !stored && !(await exists(join(repo.gitDir, "index")));
  const seed = fresh ? await readWorkspaceSeed(repo.target.gitPath, repo.workTree, maxFileSize) : undefined;
  await creating;
  const seeded = seed !== undefined && (await plantSeed(repo, seed));
  // The exclude file must be right before git lists anything (a first run, an edited or lost file).
  await writeExcludeFile(repo.gitDir, state.largeFiles, repo.selfExcludePattern());
  // A seeded index may hold tracked files the ignore rules cover: list them beside the main listing
  // (both only read the index; what the listing adds is never ignored), one walk's time instead of two.
  const ignoredAtSeed = seeded ? repo.git(IGNORED_CACHED) : undefined;
  ignoredAtSeed?.catch(() => {});
  const listed = splitNul(await repo.git(["ls-files", "-z", "--others", "--modified", "--deleted", "--exclude-standard"]));
  // A path ending in "/" is a nested git repository: its files belong to that repository, not ours.
  const candidates = new Set(listed.filter((path) => !path.endsWith("/")));
  // Files left out for their size are not listed by git (they are excluded): look again in case they shrank or went.
  for (const path of state.largeFiles) candidates.add(path);

  const verdicts = await judge(repo.workTree, [...candidates], maxFileSize);
  const removals = verdicts.filter(([, verdict]) => verdict !== "add").map(([path]) => path);
  const additions = verdicts.filter(([, verdict]) => verdict === "add").map(([path]) => path);
  const largeFiles = verdicts.filter(([, verdict]) => verdict === "large").map(([path]) => path).sort();

  await removeFromIndex(repo, removals);
  await recordPaths(repo, additions);

  // Files recorded before an ignore rule covered them leave the snapshot once the rules change.
  const excludeStamp = await fileStamp(await workspaceExcludeFile(repo.workTree));
  if (seeded || excludeStamp !== state.excludeStamp || additions.some((path) => basename(path) === ".gitignore") || removals.some((path) => basename(path) === ".gitignore")) {
    const ignored = splitNul(await (ignoredAtSeed ?? repo.git(IGNORED_CACHED)));
    await removeFromIndex(repo, ignored);
  }

  await writeExcludeFile(repo.gitDir, largeFiles, repo.selfExcludePattern());
  if (!stored || excludeStamp !== state.excludeStamp || largeFiles.join("\0") !== state.largeFiles.join("\0")) {
    await saveState(repo.gitDir, { ...state, largeFiles, excludeStamp });
  }
  return (await repo.git(["write-tree"])).toString("utf8").trim();
}

async function judge(workTree: string, paths: string[], maxFileSize: number): Promise<Array<[string, Verdict]>> {
  const verdicts: Array<[string, Verdict]> = [];
  for (let start = 0; start < paths.length; start += STAT_BATCH) {
    const batch = paths.slice(start, start + STAT_BATCH);
    const infos = await Promise.all(batch.map((path) => lstat(join(workTree, path)).catch(() => undefined)));
    batch.forEach((path, index) => {
      const info = infos[index];
      if (!info) verdicts.push([path, "remove"]);
      else if (info.isFile()) verdicts.push([path, info.size > maxFileSize ? "large" : "add"]);
      // Symlinks are recorded as links (their target text), never followed.
      else if (info.isSymbolicLink()) verdicts.push([path, "add"]);
      // A directory where a file was, or a fifo/socket/device: nothing git can store.
      else verdicts.push([path, "remove"]);
    });
  }
  return verdicts;
}

async function exists(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined)) !== undefined;
}
