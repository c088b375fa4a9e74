// How every tool turns a path into the real path it touches: the longest existing prefix's real path,
// then the rest — through symlinks, dangling ones included. Kept apart from the permission side
// (workspace-path.ts) so that bash's path analysis can use the same function.
import { constants, lstatSync, readlinkSync, realpathSync } from "node:fs";
import { open, readlink, type FileHandle } from "node:fs/promises";
import path from "node:path";

/** Symlinks followed at most while resolving one path (Linux's own limit), so a loop ends. */
export const MAX_SYMLINK_HOPS = 40;

/** Thrown by {@link realpathLoose} for a path whose symlinks form a loop (or lead through too many links). */
export class SymlinkLoopError extends Error {
  override readonly name = "SymlinkLoopError";
  constructor(readonly path: string) {
    super(`Too many levels of symbolic links resolving ${path.length > 200 ? `${path.slice(0, 200)}…` : path}`);
  }
}

/**
 * The real path of `absolute`: `realpath` of its longest existing prefix, with the rest appended. A
 * symlink right after that prefix that does not resolve (dangling, or a target yet to be created) is
 * followed too, so a write through it is judged where it would land. A `..` is applied to the real
 * folder reached so far, as the kernel does (`link/../x` is next to the link's target, not next to
 * the link). Throws {@link SymlinkLoopError} for a symlink loop.
 *
 * The longest existing prefix is found by galloping back from the end, then bisection (a prefix
 * exists only if every shorter one does): a new file in an existing folder costs two `realpath`
 * calls, a path of 100,000 components about 34, not one per component.
 */
export async function realpathLoose(absolute: string): Promise<string> {
  try {
    return resolveSync(physicalDotDot(absolute));
  } catch (error) {
    throw error instanceof SymlinkLoopError ? new SymlinkLoopError(absolute) : error;
  }
}

/**
 * `absolute` with each `..` applied as the kernel applies it: to the real folder reached so far, so
 * that `link/..` leaves the link's target rather than going back to the folder holding the link
 * (`path.resolve` would drop both lexically). Paths without `..` are only normalised.
 */
function physicalDotDot(absolute: string): string {
  const parts = absolute.split(/[\\/]/).filter((part) => part !== "" && part !== ".");
  if (!parts.includes("..")) return path.resolve(absolute);
  const root = path.parse(path.resolve(absolute)).root;
  let current = root;
  for (const part of parts) {
    if (part !== "..") current = path.join(current, part);
    else current = path.dirname(resolveSync(current));
  }
  return current;
}

/** {@link realpathLoose} for a path without `..`, synchronously (its steps are synchronous anyway). */
function resolveSync(absolute: string): string {
  let pending = path.resolve(absolute);
  for (let hops = 0; hops <= MAX_SYMLINK_HOPS; hops++) {
    const parts = pending.split(path.sep).filter(Boolean);
    const { count, real } = longestRealPrefix(parts);
    if (count === parts.length) return real;
    const next = path.join(real, parts[count]!);
    const link = symlinkTarget(next);
    if (link === undefined) return path.join(real, ...parts.slice(count));
    pending = path.resolve(real, link, ...parts.slice(count + 1));
  }
  throw new SymlinkLoopError(absolute);
}

// The file system calls are synchronous: each takes microseconds on a local disk, a fraction of an
// async call's thread-pool round trip, and resolution of one path makes a handful of them.

/** The most leading components of `parts` that `realpath` resolves, and that prefix's real path. */
function longestRealPrefix(parts: string[]): { count: number; real: string } {
  const root = path.parse(process.cwd()).root;
  const at = (count: number): string | undefined => {
    const prefix = path.join(root, ...parts.slice(0, count));
    // Longer than PATH_MAX: cannot exist, no need to ask the kernel.
    if (prefix.length > PATH_MAX) return undefined;
    try {
      return realpathSync.native(prefix);
    } catch {
      return undefined;
    }
  };
  // Prefixes longer than PATH_MAX cannot exist: the search starts below them.
  let fits = 0;
  for (let length = root.length; fits < parts.length && (length += parts[fits]!.length + 1) <= PATH_MAX + 1; ) fits++;
  // The whole path first: for an existing path, that is the only call.
  const whole = fits === parts.length ? at(parts.length) : undefined;
  if (whole !== undefined) return { count: parts.length, real: whole };
  // Then back from the end in growing steps (a new file in an existing folder: one more call), and
  // bisection between the last prefix that failed and the first that resolved.
  let high = Math.min(parts.length, fits + 1); // known not to resolve
  let low = 0;
  let lowReal: string | undefined;
  for (let step = 1; high - step > 0; step *= 2) {
    const real = at(high - step);
    if (real !== undefined) {
      low = high - step;
      lowReal = real;
      break;
    }
    high -= step;
  }
  lowReal ??= at(0) ?? root;
  while (high - low > 1) {
    const mid = (low + high) >>> 1;
    const real = at(mid);
    if (real === undefined) high = mid;
    else {
      low = mid;
      lowReal = real;
    }
  }
  return { count: low, real: lowReal };
}

const PATH_MAX = 4096;

/** The target of `file` when it is a symlink; undefined when it is anything else or missing. */
function symlinkTarget(file: string): string | undefined {
  try {
    return lstatSync(file).isSymbolicLink() ? readlinkSync(file) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Opens an already resolved real path for reading without following a symlink swapped in after the
 * check: `O_NOFOLLOW` for the last component and, on Linux, the opened file's own path (from
 * `/proc/self/fd`) compared with the path that was checked, for the folders above it.
 * Throws `ESYMLINKCHANGED` (code) when the file is not where it was resolved.
 */
export async function openResolved(absolute: string): Promise<FileHandle> {
  const handle = await open(absolute, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  if (process.platform === "linux") {
    const opened = await readlink(`/proc/self/fd/${handle.fd}`).catch(() => absolute);
    if (opened !== absolute) {
      await handle.close();
      throw changedUnderfoot(absolute);
    }
  }
  return handle;
}

/**
 * Re-resolves a real path right before a write, and throws `ESYMLINKCHANGED` (code) when a symlink
 * now stands anywhere on it: a link swapped in between the permission check and the write would
 * otherwise lead the write elsewhere.
 */
export async function assertStillResolved(absolute: string): Promise<void> {
  if ((await realpathLoose(absolute)) !== absolute) throw changedUnderfoot(absolute);
}

function changedUnderfoot(absolute: string): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error(`${absolute} changed (a symbolic link was put in its way) after it was checked; nothing was done.`);
  error.code = "ESYMLINKCHANGED";
  return error;
}
