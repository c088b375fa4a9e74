import { stat } from "node:fs/promises";
import path from "node:path";
import { FileNotFoundError, InvalidPathError } from "../errors.js";
import type { ToolContext } from "../tool.js";
import { realpathLoose, resolveToolPath, toPosix, type ResolvedPath } from "../workspace-path.js";

/** A search's starting point, checked against the workspace boundary. */
export interface SearchRoot extends ResolvedPath {
  isDirectory: boolean;
  /**
   * Turns a path relative to the search base (the root, or a file root's folder) into the path shown
   * to the model, which is also the path its `read` permission is asked with.
   */
  display(relative: string): string;
}

/**
 * Resolves the `path` argument of a search tool (default: the workspace) and checks that it exists.
 * Results are shown relative to the workspace when inside it, absolute otherwise.
 */
export async function resolveSearchRoot(ctx: ToolContext, input: string | undefined): Promise<SearchRoot> {
  const resolved = await resolveToolPath(ctx, input ?? ".", { directory: true });
  const info = await stat(resolved.absolute).catch(() => undefined);
  if (!info) throw new FileNotFoundError(resolved.absolute);
  if (!info.isDirectory() && !info.isFile()) throw new InvalidPathError(input ?? ".", "not a file or directory");
  const workspace = await realpathLoose(path.resolve(ctx.cwd));
  const base = info.isDirectory() ? resolved.absolute : path.dirname(resolved.absolute);
  // Found files are normalised paths below `base`, so each is shown as a fixed prefix and its own
  // path: no path arithmetic per file (a search may report tens of thousands).
  const prefix = resolved.external ? toPosix(base) : toPosix(path.relative(workspace, base));
  const join = prefix === "" ? (relative: string) => relative : prefix.endsWith("/") ? (relative: string) => prefix + relative : (relative: string) => `${prefix}/${relative}`;
  return {
    ...resolved,
    isDirectory: info.isDirectory(),
    display: (relative) => (relative === "" || relative === "." ? prefix || "." : join(relative)),
  };
}

/**
 * Sorts paths relative to `base` newest first (by modification time), then by path, so that both
 * search backends give the same order.
 */
export async function sortNewestFirst(relatives: string[], base: string): Promise<string[]> {
  const times = await modificationTimes(relatives.map((file) => path.join(base, file)));
  return relatives
    .map((file, i) => ({ file, time: times[i]! }))
    .sort((a, b) => b.time - a.time || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0))
    .map((entry) => entry.file);
}

/** Modification times of files (0 for one that vanished), read a few at a time. */
async function modificationTimes(files: string[], concurrency = 64): Promise<number[]> {
  const times = new Array<number>(files.length).fill(0);
  let next = 0;
  const worker = async () => {
    while (next < files.length) {
      const i = next++;
      times[i] = await stat(files[i]!).then((s) => s.mtimeMs, () => 0);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, files.length) }, worker));
  return times;
}
