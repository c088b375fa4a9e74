// Per-file differences between two snapshots, with the text on both sides, for UIs.
import { generateDiff } from "@lathe/patch";
import { z } from "zod";
import { readBlobs } from "./blobs.js";
import type { ShadowRepository } from "./shadow-repository.js";
import { GITLINK_MODE, type TreeChange } from "./tree-diff.js";

/** How one file changed between two snapshots. */
export const SnapshotFileDiff = z.object({
  /** Workspace-relative path, `/`-separated. */
  path: z.string(),
  /** The file's text before ("" when it was added, or binary). A symbolic link's text is its target. */
  before: z.string(),
  /** The file's text after ("" when it was deleted, or binary). */
  after: z.string(),
  /** Lines added (0 for binary files). */
  additions: z.number().int().nonnegative(),
  /** Lines removed (0 for binary files). */
  removals: z.number().int().nonnegative(),
  /** Whether the file was added, modified (content, mode or type) or deleted. */
  status: z.enum(["added", "modified", "deleted"]),
  /** True when either side is binary (a NUL byte in its first 8,000 bytes, as git decides): not diffed. */
  binary: z.boolean(),
  /** A unified diff of the text (`--- a/path` …), or git's "Binary files … differ" line. */
  patch: z.string(),
});
/** How one file changed between two snapshots. */
export type SnapshotFileDiff = z.infer<typeof SnapshotFileDiff>;

/** How far into a file git looks for a NUL byte to call it binary. */
const BINARY_SNIFF_BYTES = 8000;

const STATUS = { A: "added", D: "deleted", M: "modified", T: "modified" } as const;

/** Builds the per-file diffs of `changes`, reading both sides from the shadow repository. */
export async function fileDiffs(repo: ShadowRepository, changes: readonly TreeChange[]): Promise<SnapshotFileDiff[]> {
  const files = changes.filter((change) => change.oldMode !== GITLINK_MODE && change.newMode !== GITLINK_MODE);
  const ids = files.flatMap((change) => [change.status !== "A" ? change.oldId : undefined, change.status !== "D" ? change.newId : undefined]);
  const blobs = await readBlobs(repo, ids.filter((id): id is string => id !== undefined));
  return files.map((change) => {
    const before = change.status === "A" ? undefined : blobs.get(change.oldId);
    const after = change.status === "D" ? undefined : blobs.get(change.newId);
    const binary = isBinary(before) || isBinary(after);
    const beforeText = binary || !before ? "" : before.toString("utf8");
    const afterText = binary || !after ? "" : after.toString("utf8");
    const diff = binary
      ? { diff: `Binary files ${before ? `a/${change.path}` : "/dev/null"} and ${after ? `b/${change.path}` : "/dev/null"} differ\n`, additions: 0, removals: 0 }
      : generateDiff(before ? beforeText : null, after ? afterText : null, change.path);
    return {
      path: change.path,
      before: beforeText,
      after: afterText,
      additions: diff.additions,
      removals: diff.removals,
      status: STATUS[change.status],
      binary,
      patch: diff.diff,
    };
  });
}

function isBinary(content: Buffer | undefined): boolean {
  return content !== undefined && content.subarray(0, BINARY_SNIFF_BYTES).includes(0);
}
