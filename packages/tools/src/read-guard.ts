import { createHash } from "node:crypto";
import { readFile, stat } from "node:fs/promises";
import { FileModifiedError, FileNotReadError, InvalidPathError } from "./errors.js";
import type { ToolContext } from "./tool.js";

/** What the session saw of a file when it last read (or wrote) it. */
export interface FileRecord {
  mtimeMs: number;
  size: number;
  /** SHA-256 of the content, hex. */
  hash: string;
}

const RECORDS_KEY = "lathe.tools.file-records";
const LOCKS_KEY = "lathe.tools.file-locks";

function records(ctx: Pick<ToolContext, "state">): Map<string, FileRecord> {
  return ctx.state(RECORDS_KEY, () => new Map<string, FileRecord>());
}

/** SHA-256 of a file's content, hex. */
export function hashContent(content: string | Uint8Array): string {
  return createHash("sha256").update(content).digest("hex");
}

/** Records that the session has seen `absolute` with this content (after a read or its own write). */
export function recordFile(ctx: Pick<ToolContext, "state">, absolute: string, record: FileRecord): void {
  records(ctx).set(absolute, record);
}

/** The session's record of `absolute`, if it has read it. */
export function fileRecord(ctx: Pick<ToolContext, "state">, absolute: string): FileRecord | undefined {
  return records(ctx).get(absolute);
}

/**
 * Records the file as it is now, content given (saves reading it again). A file only an editor's
 * buffer holds (see {@link ToolContext.files}) has no time or size on disk: its content alone counts.
 */
export async function recordCurrent(ctx: Pick<ToolContext, "state">, absolute: string, content: string | Uint8Array): Promise<void> {
  const info = await stat(absolute).catch(() => ({ mtimeMs: 0, size: Buffer.byteLength(content) }));
  recordFile(ctx, absolute, { mtimeMs: info.mtimeMs, size: info.size, hash: hashContent(content) });
}

/**
 * The file's current bytes: through the host's file access (an editor's buffer) when it has the
 * file, else from the disk. Rejects with ENOENT when neither has it.
 */
export async function currentContent(ctx: Pick<ToolContext, "files" | "sessionID" | "abort">, absolute: string): Promise<Buffer> {
  const text = ctx.files ? await ctx.files.readText(absolute, { sessionID: ctx.sessionID, signal: ctx.abort }) : undefined;
  return text !== undefined ? Buffer.from(text) : readFile(absolute);
}

/**
 * The read-before-write guard. Returns the file's current content, or `undefined` when it does not
 * exist (creating a file needs no read). Throws {@link FileNotReadError} when the session never read
 * the file and {@link FileModifiedError} when its content changed since (a new mtime with the same
 * content is not a change). `display` is the path shown in messages.
 */
export async function readForWrite(
  ctx: Pick<ToolContext, "state" | "files" | "sessionID" | "abort">,
  absolute: string,
  display: string,
): Promise<Buffer | undefined> {
  let content: Buffer;
  try {
    content = await currentContent(ctx, absolute);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return undefined;
    if (code === "EISDIR") throw new InvalidPathError(display, "it is a directory, not a file");
    throw error;
  }
  const record = records(ctx).get(absolute);
  if (!record) throw new FileNotReadError(display);
  if (record.hash !== hashContent(content)) throw new FileModifiedError(display);
  return content;
}

/**
 * Runs `fn` holding the session's write locks of `files` (absolute paths), so that writes to one
 * file never interleave. Several files are locked in sorted order, so two calls cannot deadlock.
 */
export async function withFileLocks<T>(ctx: Pick<ToolContext, "state">, files: string[], fn: () => Promise<T>): Promise<T> {
  const locks = ctx.state(LOCKS_KEY, () => new Map<string, Promise<void>>());
  const sorted = [...new Set(files)].sort();
  const releases: Array<() => void> = [];
  try {
    for (const file of sorted) {
      const previous = locks.get(file) ?? Promise.resolve();
      let release!: () => void;
      const current = new Promise<void>((resolve) => (release = resolve));
      const chained = previous.then(() => current);
      locks.set(file, chained);
      releases.push(() => {
        release();
        if (locks.get(file) === chained) locks.delete(file);
      });
      await previous;
    }
    return await fn();
  } finally {
    for (const release of releases) release();
  }
}
