import { randomBytes } from "node:crypto";
import { mkdir, open, readFile, readdir, rename, rm } from "node:fs/promises";
import { dirname } from "node:path";
import { CorruptRecordError } from "./errors.js";

/** Suffix of files being written; readers skip them, so a crash mid-write leaves nothing half-read. */
export const TEMP_SUFFIX = ".tmp";

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException).code === "ENOENT";

/** A unique name beside `path` for a file or directory on its way in or out. */
export function tempPath(path: string): string {
  return `${path}.${process.pid}-${randomBytes(6).toString("hex")}${TEMP_SUFFIX}`;
}

/**
 * Writes `data` to `path` so that `path` always holds either its old content or all of the new:
 * write a temp file beside it, fsync it, rename it over. The directory is not fsynced here (callers
 * fsync each directory once per batch with {@link syncDir}).
 */
export async function writeFileAtomic(path: string, data: string): Promise<void> {
  const temp = tempPath(path);
  const handle = await open(temp, "wx");
  try {
    await handle.writeFile(data);
    await handle.sync();
  } catch (error) {
    await handle.close();
    await rm(temp, { force: true });
    throw error;
  }
  await handle.close();
  try {
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/** Makes a directory's entries (renames, creations, removals) durable. */
export async function syncDir(path: string): Promise<void> {
  let handle;
  try {
    handle = await open(path, "r");
  } catch (error) {
    if (isMissing(error)) return; // removed meanwhile: nothing left to make durable
    throw error;
  }
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Creates `path` and its missing parents; returns the directories whose entries changed (the parent
 * of each created directory), to be fsynced with the batch.
 */
export async function ensureDir(path: string): Promise<string[]> {
  const first = await mkdir(path, { recursive: true });
  if (first === undefined) return [];
  const changed: string[] = [];
  for (let dir = path; dir.length >= first.length; dir = dirname(dir)) changed.push(dirname(dir));
  return changed;
}

/** Parses a JSON file; undefined when it does not exist. */
export async function readJson(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if (isMissing(error) || (error as NodeJS.ErrnoException).code === "ENOTDIR") return undefined;
    throw error;
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new CorruptRecordError(path, error);
  }
}

/** The names of a directory's `.json` files without the suffix, sorted; empty when it does not exist. */
export async function listJsonNames(dir: string): Promise<string[]> {
  return (await listEntries(dir)).filter((n) => n.endsWith(".json")).map((n) => n.slice(0, -5));
}

/** A directory's entries, sorted, temp files left out; empty when it does not exist. */
export async function listEntries(dir: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if (isMissing(error) || (error as NodeJS.ErrnoException).code === "ENOTDIR") return [];
    throw error;
  }
  return names.filter((n) => !n.endsWith(TEMP_SUFFIX)).sort(compareIds);
}

/**
 * Removes a directory tree so that a crash never leaves half of it: rename it aside (atomic), make
 * that durable, then delete the renamed copy. Leftovers of a crash end in {@link TEMP_SUFFIX} and
 * are invisible to readers.
 */
export async function removeTree(path: string): Promise<void> {
  const aside = tempPath(path);
  try {
    await rename(path, aside);
  } catch (error) {
    if (isMissing(error)) return;
    throw error;
  }
  await syncDir(dirname(path));
  await rm(aside, { recursive: true, force: true });
}

/** Byte order of ids, the order `createId` makes them in (not locale order). */
export function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Runs `fn` over `items` with at most `limit` at once (file descriptors are finite). */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
