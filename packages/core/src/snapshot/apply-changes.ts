// Turns the workspace from one snapshot into another, path by path: given the changes from the
// tree the workspace is in now to the wanted tree, it deletes what the wanted tree lacks and has git
// write the wanted blobs (byte for byte, with their modes and links). Files outside the changes —
// unchanged, ignored or too large to be recorded — are not touched.
import { rmdir, unlink } from "node:fs/promises";
import { dirname, join } from "node:path";
import { indexInfoLine, removalLine } from "./git-lines.js";
import { recordPaths } from "./shadow-index.js";
import type { ShadowRepository } from "./shadow-repository.js";
import { GITLINK_MODE, type TreeChange } from "./tree-diff.js";

/** Applies `changes` (from the workspace's current tree to the wanted one) to the workspace and the shadow index. */
export async function applyChanges(repo: ShadowRepository, changes: readonly TreeChange[]): Promise<void> {
  // Nested repositories are never recorded; a tree that names one (made elsewhere) is left alone there.
  const relevant = changes.filter((change) => change.oldMode !== GITLINK_MODE && change.newMode !== GITLINK_MODE);
  const deletions = relevant.filter((change) => change.status === "D");
  const writes = relevant.filter((change) => change.status !== "D");
  if (relevant.length === 0) return;

  for (const change of deletions) await removeFile(join(repo.workTree, change.path));
  await pruneEmptyDirectories(repo.workTree, deletions.map((change) => change.path));

  // Removals first: a file `a` must leave the index before `a/b` can enter it.
  const indexInfo = deletions.map((change) => removalLine(change.path)).join("") + writes.map((change) => indexInfoLine(change.newMode, change.newId, change.path)).join("");
  await repo.git(["update-index", "-z", "--index-info"], { input: indexInfo });
  if (writes.length > 0) {
    const paths = writes.map((change) => change.path);
    await repo.git(["checkout-index", "--force", "-z", "--stdin"], { input: paths.map((path) => `${path}\0`).join("") });
    // checkout-index leaves the old stat data in the index: record the written files afresh, or every
    // later track() would have to re-read them to see they are unchanged.
    await recordPaths(repo, paths);
  }
}

async function removeFile(path: string): Promise<void> {
  try {
    await unlink(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "ENOENT" && code !== "ENOTDIR") throw error;
  }
}

/** Removes directories left empty by the deletions, deepest first, never the workspace itself (as git checkout does). */
async function pruneEmptyDirectories(workTree: string, deletedPaths: readonly string[]): Promise<void> {
  const directories = new Set<string>();
  for (const path of deletedPaths) {
    for (let dir = dirname(path); dir !== "." && dir !== "/" && dir !== ""; dir = dirname(dir)) directories.add(dir);
  }
  const deepestFirst = [...directories].sort((a, b) => b.split("/").length - a.split("/").length);
  for (const dir of deepestFirst) {
    // Fails harmlessly when the directory still holds something (ignored files, other files) or is gone.
    await rmdir(join(workTree, dir)).catch(() => undefined);
  }
}
