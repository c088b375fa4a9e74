// apply_patch's files, resolved like every other tool's paths (through symlinks, outside paths asked
// for), and the patch engine's view of them: a file system whose names map to those real paths.
import { mkdir, readFile, rmdir, stat, unlink } from "node:fs/promises";
import path from "node:path";
import { PatchApplyError, type EntryKind, type ParsedPatch, type PatchFileSystem } from "@lathe/patch";
import { writeFileAtomic } from "../atomic-write.js";
import { assertStillResolved } from "../path-resolution.js";
import type { ToolContext } from "../tool.js";
import { permissionPath, resolveToolPath, toPosix, type ResolvedPath } from "../workspace-path.js";

/** The patch's paths, resolved: the engine's names for them and how to show them. */
export interface ResolvedPatch {
  /** The patch with each path replaced by its engine name. */
  patch: ParsedPatch;
  /** The file system the engine plans and commits against. */
  files: PatchFileSystem;
  /** Engine name → the resolved path. */
  resolved: Map<string, ResolvedPath>;
  /** The name shown to the model and asked for: workspace-relative inside, absolute outside. */
  display(name: string): string;
  /** Checks, right before the commit, that no symlink was swapped onto any path since it was resolved. */
  recheck(): Promise<void>;
}

/**
 * Resolves every path of a patch (added, updated, deleted, moved from and to) with
 * {@link resolveToolPath}, which asks `external_directory` for one that leads outside the workspace.
 * Inside the workspace a file's engine name is its real workspace-relative path; outside, it is the
 * real absolute path under a prefix no workspace path starts with.
 */
export async function resolvePatch(ctx: ToolContext, parsed: ParsedPatch, workspace: string): Promise<ResolvedPatch> {
  const byInput = new Map<string, ResolvedPath>();
  const resolve = async (input: string) => {
    let found = byInput.get(input);
    if (!found) byInput.set(input, (found = await resolveToolPath(ctx, input)));
    return found;
  };
  for (const hunk of parsed.hunks) {
    await resolve(hunk.path);
    if (hunk.type === "update" && hunk.movePath !== undefined) await resolve(hunk.movePath);
  }
  // The prefix of outside names: a first component no resolved inside path has.
  const firsts = new Set([...byInput.values()].filter((r) => !r.external).map((r) => r.relative.split("/")[0]));
  let outside = "@outside";
  while (firsts.has(outside)) outside += "_";
  const nameOf = (r: ResolvedPath) => (r.external ? `${outside}${toPosix(r.absolute)}` : r.relative);

  const resolved = new Map<string, ResolvedPath>();
  for (const r of byInput.values()) resolved.set(nameOf(r), r);
  const rename = (input: string) => nameOf(byInput.get(input)!);
  const patch: ParsedPatch = {
    hunks: parsed.hunks.map((hunk) =>
      hunk.type === "update" && hunk.movePath !== undefined
        ? { ...hunk, path: rename(hunk.path), movePath: rename(hunk.movePath) }
        : { ...hunk, path: rename(hunk.path) },
    ),
  };
  const absoluteOf = (name: string) => (name === outside || name.startsWith(`${outside}/`) ? name.slice(outside.length) || "/" : path.join(workspace, name));
  return {
    patch,
    files: new ResolvedFileSystem(absoluteOf),
    resolved,
    display: (name) => {
      const r = resolved.get(name);
      return r ? permissionPath(r) : name.startsWith(`${outside}/`) ? name.slice(outside.length) : name;
    },
    recheck: async () => {
      for (const r of byInput.values()) await assertStillResolved(r.absolute);
    },
  };
}

/** The engine's file system over resolved paths. Writes are atomic (temporary file, then rename). */
class ResolvedFileSystem implements PatchFileSystem {
  constructor(private readonly absoluteOf: (name: string) => string) {}

  async kind(name: string): Promise<EntryKind> {
    try {
      const info = await stat(this.absoluteOf(name));
      return info.isFile() ? "file" : info.isDirectory() ? "directory" : "other";
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT" || code === "ENOTDIR") return "missing";
      throw error;
    }
  }

  async readFile(name: string): Promise<string> {
    const bytes = await readFile(this.absoluteOf(name));
    try {
      return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
    } catch {
      throw new PatchApplyError(`Cannot patch ${name}: it is not UTF-8 text.`, { code: "binary_file", path: name });
    }
  }

  async writeFile(name: string, content: string): Promise<void> {
    // The rename at the end of an atomic write replaces whatever entry stands there; it never writes through a link.
    await writeFileAtomic(this.absoluteOf(name), content);
  }

  async deleteFile(name: string): Promise<void> {
    await unlink(this.absoluteOf(name));
  }

  async makeDirectory(name: string): Promise<void> {
    await mkdir(this.absoluteOf(name));
  }

  async removeDirectory(name: string): Promise<void> {
    await rmdir(this.absoluteOf(name));
  }
}
