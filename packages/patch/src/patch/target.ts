// The targets a patch can be applied to, turned into one PatchFileSystem interface.
import { DirectoryFileSystem } from "./directory-file-system.js";
import type { PatchFileSystem } from "./file-system.js";
import { MemoryFileSystem } from "./memory-file-system.js";

/** A directory path, an in-memory map of relative path → content (changed in place), or any {@link PatchFileSystem}. */
export type PatchTarget = string | Map<string, string> | PatchFileSystem;

/** The file system behind a target. */
export function toFileSystem(target: PatchTarget): PatchFileSystem {
  if (typeof target === "string") return new DirectoryFileSystem(target);
  if (target instanceof Map) return new MemoryFileSystem(target);
  return target;
}
