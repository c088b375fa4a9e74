// The file system a patch is planned against and committed to. Two implementations share every line
// of the planning and commit logic: a real directory and an in-memory map of path → content.

import type { PatchApplyError } from "../errors.js";

/** What a path names ("other": a socket, device or the like, never edited). */
export type EntryKind = "file" | "directory" | "other" | "missing";

/**
 * The operations the patch engine needs from a target. Paths are relative to the target's root,
 * normalised, with "/" separators, and never leave the root (the engine checks before calling).
 */
export interface PatchFileSystem {
  /** What `path` names. */
  kind(path: string): Promise<EntryKind>;
  /** The UTF-8 text of a file; throws {@link PatchApplyError} `binary_file` when it is not text. */
  readFile(path: string): Promise<string>;
  /** Replaces (or creates) a file atomically: a reader sees the old or the new content, never a mix. */
  writeFile(path: string, content: string): Promise<void>;
  /** Deletes a file. */
  deleteFile(path: string): Promise<void>;
  /** Creates one directory whose parent exists. */
  makeDirectory(path: string): Promise<void>;
  /** Removes an empty directory (used to undo {@link PatchFileSystem.makeDirectory}). */
  removeDirectory(path: string): Promise<void>;
}

