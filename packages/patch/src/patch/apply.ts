// applyPatch: plan, then commit — the whole patch or nothing.
import { commitPlan } from "./commit.js";
import type { FileChange } from "./file-change.js";
import { planPatch } from "./plan.js";
import type { PatchTarget } from "./target.js";
import type { ParsedPatch } from "./types.js";

/**
 * Applies a `*** Begin Patch` text to a directory (path) or an in-memory `Map<string, string>` of
 * relative paths to contents (changed in place). Every hunk of every file is verified before
 * anything is written; writes are atomic and rolled back if one fails. Resolves to the changed
 * files (with diffs and stats) in patch order; rejects with {@link PatchParseError},
 * {@link PatchPathError} or {@link PatchApplyError}, leaving the target unchanged.
 *
 * @example
 * ```ts
 * const files = new Map([["hello.txt", "hello\n"]]);
 * const changes = await applyPatch(
 *   "*** Begin Patch\n*** Update File: hello.txt\n@@\n-hello\n+hello, world\n*** End Patch",
 *   files,
 * );
 * // files.get("hello.txt") === "hello, world\n"; changes[0].type === "modified"
 * ```
 */
export async function applyPatch(patch: string | ParsedPatch, target: PatchTarget): Promise<FileChange[]> {
  const changes = await planPatch(patch, target);
  await commitPlan(changes, target);
  return changes;
}
