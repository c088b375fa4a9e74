// planPatch: checks every operation of a patch against the current files and computes each file's
// new content and diff, without writing anything. Operations see the effect of earlier ones (an
// Update after an Add of the same file edits the added content), exactly as the commit will.
import { PatchApplyError } from "../errors.js";
import { generateDiff } from "../diff/generate-diff.js";
import type { FileChange } from "./file-change.js";
import type { EntryKind, PatchFileSystem } from "./file-system.js";
import { parsePatch } from "./parse.js";
import { parentDirectories, safeRelativePath } from "./paths.js";
import { type PatchTarget, toFileSystem } from "./target.js";
import type { ParsedPatch, PatchHunk } from "./types.js";
import { applyChunks } from "./update-file.js";

/**
 * Computes what a patch would do, without writing: every hunk of every file is verified against the
 * current files. Resolves to the file changes in patch order (old and new content, diff, stats);
 * rejects with {@link PatchParseError}, {@link PatchPathError} or {@link PatchApplyError}.
 * Use it to show the diffs (e.g. to ask permission) and then {@link commitPlan} the same changes.
 */
export async function planPatch(patch: string | ParsedPatch, target: PatchTarget): Promise<FileChange[]> {
  const parsed = typeof patch === "string" ? parsePatch(patch) : patch;
  // Every path is checked before any file is looked at.
  const hunks = parsed.hunks.map(normalizeHunkPaths);
  const state = new Overlay(toFileSystem(target));
  const changes: FileChange[] = [];
  for (const hunk of hunks) changes.push(await planHunk(hunk, state));
  return changes;
}

function normalizeHunkPaths(hunk: PatchHunk): PatchHunk {
  const path = safeRelativePath(hunk.path);
  if (hunk.type !== "update" || hunk.movePath === undefined) return { ...hunk, path };
  return { ...hunk, path, movePath: safeRelativePath(hunk.movePath) };
}

async function planHunk(hunk: PatchHunk, state: Overlay): Promise<FileChange> {
  const { path } = hunk;
  if (hunk.type === "add") {
    await state.requireWritable(path);
    const before = await state.content(path);
    state.set(path, hunk.contents);
    return change(before === null ? "added" : "modified", path, before, hunk.contents);
  }
  const before = await state.requireFile(path, hunk.type === "delete" ? "delete" : "update");
  if (hunk.type === "delete") {
    state.set(path, null);
    return change("deleted", path, before, null);
  }
  const after = applyChunks(path, before, hunk.chunks);
  const dest = hunk.movePath;
  if (dest === undefined || dest === path) {
    state.set(path, after);
    return change("modified", path, before, after);
  }
  await state.requireWritable(dest);
  const destinationContent = await state.content(dest);
  state.set(path, null);
  state.set(dest, after);
  return { ...change("moved", path, before, after, dest), destinationContent };
}

function change(type: FileChange["type"], path: string, before: string | null, after: string | null, movePath?: string): FileChange {
  const { diff, additions, removals } = generateDiff(before, after, path, movePath ? { newPath: movePath } : {});
  const result: FileChange = { type, path, oldContent: before, newContent: after, diff, additions, removals };
  if (movePath) result.movePath = movePath;
  return result;
}

/** The target as the patch has changed it so far: planned contents over the real files. */
class Overlay {
  private readonly fs: PatchFileSystem;
  private readonly planned = new Map<string, string | null>();

  constructor(fs: PatchFileSystem) {
    this.fs = fs;
  }

  set(path: string, content: string | null): void {
    this.planned.set(path, content);
  }

  async kind(path: string): Promise<EntryKind> {
    const planned = this.planned.get(path);
    if (planned !== undefined) return planned === null ? "missing" : "file";
    const real = await this.fs.kind(path);
    if (real !== "missing") return real;
    for (const [p, c] of this.planned) if (c !== null && p.startsWith(`${path}/`)) return "directory";
    return "missing";
  }

  async content(path: string): Promise<string | null> {
    const planned = this.planned.get(path);
    if (planned !== undefined) return planned;
    return (await this.kind(path)) === "file" ? this.fs.readFile(path) : null;
  }

  async requireFile(path: string, verb: "update" | "delete"): Promise<string> {
    const kind = await this.kind(path);
    if (kind === "missing") {
      throw new PatchApplyError(`Failed to ${verb} ${path}: the file does not exist. Check the path; use '*** Add File:' to create a file.`, {
        code: "file_not_found",
        path,
      });
    }
    if (kind !== "file") {
      throw new PatchApplyError(`Failed to ${verb} ${path}: it is a ${kind === "directory" ? "directory" : "special file"}, not a file.`, {
        code: "not_a_file",
        path,
      });
    }
    return (await this.content(path))!;
  }

  /** Checks that a file can be written at `path`: it is not a directory and no parent is a file. */
  async requireWritable(path: string): Promise<void> {
    for (const dir of parentDirectories(path)) {
      const kind = await this.kind(dir);
      if (kind === "file" || kind === "other") {
        throw new PatchApplyError(`Cannot write ${path}: ${dir} is a file, not a directory.`, { code: "not_a_directory", path });
      }
    }
    const kind = await this.kind(path);
    if (kind === "directory" || kind === "other") {
      throw new PatchApplyError(`Cannot write ${path}: it is a ${kind === "directory" ? "directory" : "special file"}.`, {
        code: "not_a_file",
        path,
      });
    }
  }
}
