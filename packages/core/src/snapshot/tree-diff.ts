// The differences between two snapshot trees, from `git diff-tree --raw` (renames are reported as a
// deletion and an addition: each path then says plainly what it was and what it became).
import type { ShadowRepository } from "./shadow-repository.js";
import { splitNul } from "./git-lines.js";
import { GitOutputError } from "./errors.js";

/** One path that differs between two trees. */
export interface TreeChange {
  /** Workspace-relative path, `/`-separated. */
  path: string;
  /** A: only in the new tree; D: only in the old; M: content or mode changed; T: type changed (file, link…). */
  status: "A" | "D" | "M" | "T";
  /** Git mode in the old tree ("000000" when absent). */
  oldMode: string;
  /** Git mode in the new tree ("000000" when absent). */
  newMode: string;
  /** Object id in the old tree (zeros when absent). */
  oldId: string;
  /** Object id in the new tree (zeros when absent). */
  newId: string;
}

/** Mode of a symbolic link in a tree. */
export const SYMLINK_MODE = "120000";
/** Mode of a nested repository (gitlink); the engine never records these, but a tree could hold one. */
export const GITLINK_MODE = "160000";

/** Paths that differ from tree `from` to tree `to`, in git's path order. */
export async function diffTrees(repo: ShadowRepository, from: string, to: string): Promise<TreeChange[]> {
  if (from === to) return [];
  const fields = splitNul(await repo.git(["diff-tree", "-r", "-z", "--raw", "--no-renames", "--no-abbrev", from, to]));
  const changes: TreeChange[] = [];
  for (let index = 0; index + 1 < fields.length; index += 2) {
    const header = fields[index]!;
    const path = fields[index + 1]!;
    const [oldMode, newMode, oldId, newId, status] = header.slice(1).split(" ");
    if (!oldMode || !newMode || !oldId || !newId || !status) throw new GitOutputError("diff-tree", header);
    const kind = status.charAt(0);
    if (kind !== "A" && kind !== "D" && kind !== "M" && kind !== "T") throw new GitOutputError("diff-tree", header);
    changes.push({ path, status: kind, oldMode, newMode, oldId, newId });
  }
  return changes;
}
