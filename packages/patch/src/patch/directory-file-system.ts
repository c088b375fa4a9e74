// A patch target on disk: a directory whose files are read as UTF-8 and replaced atomically
// (write to a temporary file beside the target, then rename over it, keeping the file's mode).
import { randomBytes } from "node:crypto";
import { chmod, lstat, mkdir, readFile, realpath, rename, rmdir, stat, unlink, writeFile } from "node:fs/promises";
import { basename, dirname, join, resolve, sep } from "node:path";
import { PatchPathError } from "../errors.js";
import { binaryFileError, requireText } from "./binary-file.js";
import type { EntryKind, PatchFileSystem } from "./file-system.js";

const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * A {@link PatchFileSystem} rooted at a directory. Every path is checked against the root after
 * symbolic links are resolved, so a link inside the workspace cannot lead a write outside it.
 */
export class DirectoryFileSystem implements PatchFileSystem {
  /** Absolute path of the root directory. */
  readonly root: string;
  private realRoot: Promise<string> | undefined;

  constructor(root: string) {
    this.root = resolve(root);
  }

  /** The absolute path of `path`, after checking that it resolves inside the root. */
  private async resolve(path: string): Promise<string> {
    this.realRoot ??= realpath(this.root);
    const root = await this.realRoot;
    const target = join(this.root, path);
    for (let probe = target; ; probe = dirname(probe)) {
      let real: string;
      try {
        real = await realpath(probe);
      } catch (error) {
        if (isMissing(error) && probe !== this.root) continue;
        throw error;
      }
      if (real !== root && !real.startsWith(root + sep)) {
        throw new PatchPathError(path, "it resolves outside the workspace root through a symbolic link");
      }
      return target;
    }
  }

  async kind(path: string): Promise<EntryKind> {
    try {
      const info = await stat(await this.resolve(path));
      return info.isFile() ? "file" : info.isDirectory() ? "directory" : "other";
    } catch (error) {
      if (isMissing(error) || (error as NodeJS.ErrnoException).code === "ENOTDIR") return "missing";
      throw error;
    }
  }

  async readFile(path: string): Promise<string> {
    const bytes = await readFile(await this.resolve(path));
    let text: string;
    try {
      text = decoder.decode(bytes);
    } catch {
      throw binaryFileError(path);
    }
    return requireText(path, text);
  }

  async writeFile(path: string, content: string): Promise<void> {
    const target = await this.resolve(path);
    const temp = join(dirname(target), `.${basename(target)}.${process.pid}.${randomBytes(4).toString("hex")}.lathe-tmp`);
    const mode = await lstat(target).then((s) => (s.isFile() ? s.mode & 0o7777 : undefined), () => undefined);
    try {
      await writeFile(temp, content, { flag: "wx" });
      if (mode !== undefined) await chmod(temp, mode);
      await rename(temp, target);
    } catch (error) {
      await unlink(temp).catch(() => undefined);
      throw error;
    }
  }

  async deleteFile(path: string): Promise<void> {
    await unlink(await this.resolve(path));
  }

  async makeDirectory(path: string): Promise<void> {
    await mkdir(await this.resolve(path));
  }

  async removeDirectory(path: string): Promise<void> {
    await rmdir(await this.resolve(path));
  }
}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === "ENOENT";
}
