// A patch target held in memory: a Map of relative path → content, changed in place.
import { PatchApplyError } from "../errors.js";
import { requireText } from "./binary-file.js";
import { safeRelativePath } from "./paths.js";
import type { EntryKind, PatchFileSystem } from "./file-system.js";

/**
 * An in-memory {@link PatchFileSystem} over a `Map<string, string>` of relative paths to contents.
 * Directories are implied by the paths of the files under them. The map is changed in place.
 */
export class MemoryFileSystem implements PatchFileSystem {
  readonly files: Map<string, string>;

  constructor(files: Map<string, string>) {
    this.files = files;
  }

  /** The map key naming `path` (keys may be written `./a` or `a//b`; they are matched normalised). */
  private key(path: string): string | undefined {
    if (this.files.has(path)) return path;
    for (const key of this.files.keys()) {
      try {
        if (safeRelativePath(key) === path) return key;
      } catch {
        // A key that is not a safe relative path can never be addressed by a patch.
      }
    }
    return undefined;
  }

  async kind(path: string): Promise<EntryKind> {
    if (this.key(path) !== undefined) return "file";
    const prefix = `${path}/`;
    for (const key of this.files.keys()) {
      let normalized: string;
      try {
        normalized = safeRelativePath(key);
      } catch {
        continue;
      }
      if (normalized.startsWith(prefix)) return "directory";
    }
    return "missing";
  }

  async readFile(path: string): Promise<string> {
    const key = this.key(path);
    if (key === undefined) throw new PatchApplyError(`File not found: ${path}`, { code: "file_not_found", path });
    return requireText(path, this.files.get(key)!);
  }

  async writeFile(path: string, content: string): Promise<void> {
    this.files.set(this.key(path) ?? path, content);
  }

  async deleteFile(path: string): Promise<void> {
    const key = this.key(path);
    if (key !== undefined) this.files.delete(key);
  }

  async makeDirectory(path: string): Promise<void> {
    if (this.key(path) !== undefined) {
      throw new PatchApplyError(`Cannot create directory ${path}: a file has that name`, { code: "not_a_directory", path });
    }
  }

  async removeDirectory(): Promise<void> {
    // Directories of a map exist only through their files.
  }
}
