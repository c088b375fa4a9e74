import { generateDiff } from "@lathe/patch";
import type { AfterWriteMetadata } from "./after-write.js";
import { writeFileAtomic } from "./atomic-write.js";
import { FileModifiedError, NotUtf8Error } from "./errors.js";
import { assertStillResolved } from "./path-resolution.js";
import { currentContent, readForWrite, recordCurrent, withFileLocks } from "./read-guard.js";
import type { ToolContext } from "./tool.js";
import { permissionPath, type ResolvedPath } from "./workspace-path.js";

/** What {@link editFile} did, for the tool's result and metadata. */
export interface FileEditResult {
  /** The content before (`undefined`: the file did not exist). */
  before: string | undefined;
  after: string;
  diff: string;
  additions: number;
  removals: number;
}

/**
 * The one path every file-writing tool takes: under the file's write lock, read the current content
 * through the read-before-write guard, `compute` the new content (throw to refuse), ask `edit` with
 * the diff (unless nothing changes), check the file did not change while the user was asked, write atomically, record the new
 * state as seen by the session, and emit `file.edited`.
 */
export async function editFile(
  ctx: ToolContext,
  target: ResolvedPath,
  compute: (before: string | undefined) => string,
): Promise<FileEditResult> {
  return withFileLocks(ctx, [target.absolute], async () => {
    const current = await readForWrite(ctx, target.absolute, target.relative);
    const before = current === undefined ? undefined : decodeUtf8(current, target.relative);
    const after = compute(before);
    if (after === before) return { before, after, diff: "", additions: 0, removals: 0 };
    const { diff, additions, removals } = generateDiff(before ?? null, after, target.relative);
    await ctx.ask({
      permission: "edit",
      patterns: [permissionPath(target)],
      metadata: { filepath: target.absolute, diff },
    });
    // The approval may have taken a while; the file must still be what the diff was made from.
    const now = await currentContent(ctx, target.absolute).catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return undefined;
      throw error;
    });
    if (now === undefined ? current !== undefined : current === undefined || !now.equals(current)) {
      throw new FileModifiedError(target.relative);
    }
    // A symlink swapped onto the path while the user was asked would lead the write elsewhere.
    await assertStillResolved(target.absolute);
    if (ctx.files) await ctx.files.writeText(target.absolute, after, { sessionID: ctx.sessionID, signal: ctx.abort });
    else await writeFileAtomic(target.absolute, after);
    await recordCurrent(ctx, target.absolute, after);
    ctx.emit({ type: "file.edited", file: target.absolute });
    return { before, after, diff, additions, removals };
  });
}

/** The metadata every file-writing tool returns (`write`, `edit`, `multiedit`). */
export interface FileWriteMetadata extends AfterWriteMetadata {
  /** Absolute path of the file written. */
  filepath: string;
  /** Unified diff of the change ("" when nothing changed). */
  diff: string;
  additions: number;
  removals: number;
  /** True when the file existed before. */
  existed: boolean;
}

/** {@link FileWriteMetadata} of an {@link editFile} result. */
export function fileWriteMetadata(target: ResolvedPath, result: FileEditResult): FileWriteMetadata {
  return { filepath: target.absolute, diff: result.diff, additions: result.additions, removals: result.removals, existed: result.before !== undefined };
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** The file's text; a file that is not valid UTF-8 is refused rather than decoded with replacement characters. */
function decodeUtf8(bytes: Buffer, path: string): string {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    throw new NotUtf8Error(path);
  }
}
