// commitPlan: writes a planned patch all or nothing. The files are first checked to be exactly as
// planned; then deletions, then writes (each write atomic: temp file + rename). If anything fails
// midway, every file already changed is put back and every directory created is removed, so the
// target ends as it began. Codex keeps a partial change in this case (its scenario 015); Lathe
// never leaves one.
import { PatchApplyError } from "../errors.js";
import type { FileChange } from "./file-change.js";
import type { PatchFileSystem } from "./file-system.js";
import { parentDirectories } from "./paths.js";
import { type PatchTarget, toFileSystem } from "./target.js";

type Undo = { kind: "restore"; path: string; content: string } | { kind: "delete"; path: string } | { kind: "rmdir"; path: string };

/**
 * Writes the changes computed by {@link planPatch} to the target, atomically: either every change is
 * written or the target is left exactly as it was. Rejects with {@link PatchApplyError} `stale` when
 * a file no longer matches the plan, `write_failed` when writing failed (after restoring).
 */
export async function commitPlan(changes: readonly FileChange[], target: PatchTarget): Promise<void> {
  const fs = toFileSystem(target);
  const { originals, finals } = netEffect(changes);
  await verifyUnchanged(fs, originals);

  const deletions = [...finals].filter(([path, content]) => content === null && originals.get(path) != null);
  const writes = [...finals].filter(([path, content]) => content !== null && content !== originals.get(path)) as Array<[string, string]>;
  const undo: Undo[] = [];
  let current = "";
  try {
    for (const [path] of deletions) {
      current = path;
      await fs.deleteFile(path);
      undo.push({ kind: "restore", path, content: originals.get(path)! });
    }
    for (const [path, content] of writes) {
      current = path;
      for (const dir of parentDirectories(path)) {
        if ((await fs.kind(dir)) === "missing") {
          await fs.makeDirectory(dir);
          undo.push({ kind: "rmdir", path: dir });
        }
      }
      await fs.writeFile(path, content);
      const original = originals.get(path);
      undo.push(original == null ? { kind: "delete", path } : { kind: "restore", path, content: original });
    }
  } catch (error) {
    const unrestored = await rollBack(fs, undo);
    const restored = unrestored.length === 0
      ? "Every file already written was restored; nothing changed."
      : `Restoring failed for: ${unrestored.join(", ")}.`;
    throw new PatchApplyError(`Writing ${current} failed (${(error as Error)?.message ?? String(error)}). ${restored}`, {
      code: "write_failed",
      path: current,
      cause: error,
    });
  }
}

/** Each path's content before the first change and after the last one (null: no file). */
function netEffect(changes: readonly FileChange[]): { originals: Map<string, string | null>; finals: Map<string, string | null> } {
  const originals = new Map<string, string | null>();
  const finals = new Map<string, string | null>();
  const before = (path: string, content: string | null): void => {
    if (!originals.has(path)) originals.set(path, content);
  };
  for (const change of changes) {
    before(change.path, change.oldContent);
    if (change.type === "moved" && change.movePath !== undefined) {
      before(change.movePath, change.destinationContent ?? null);
      finals.set(change.path, null);
      finals.set(change.movePath, change.newContent);
    } else finals.set(change.path, change.newContent);
  }
  return { originals, finals };
}

async function verifyUnchanged(fs: PatchFileSystem, originals: Map<string, string | null>): Promise<void> {
  for (const [path, expected] of originals) {
    const kind = await fs.kind(path);
    const same = expected === null ? kind === "missing" : kind === "file" && (await fs.readFile(path)) === expected;
    if (!same) {
      throw new PatchApplyError(`${path} changed since the patch was planned; nothing was written. Re-read it and plan again.`, {
        code: "stale",
        path,
      });
    }
  }
}

/** Undoes what was done, newest first; returns the paths that could not be restored. */
async function rollBack(fs: PatchFileSystem, undo: Undo[]): Promise<string[]> {
  const failed: string[] = [];
  for (const step of undo.reverse()) {
    try {
      if (step.kind === "restore") await fs.writeFile(step.path, step.content);
      else if (step.kind === "delete") await fs.deleteFile(step.path);
      else await fs.removeDirectory(step.path);
    } catch {
      failed.push(step.path);
    }
  }
  return failed;
}
