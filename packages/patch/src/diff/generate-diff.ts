// generateDiff: a git-style unified diff of two versions of one file, with line statistics.
import { scriptStats } from "./edit-script.js";
import { diffLineArrays } from "./line-diff.js";
import { formatHunks, splitKeepingNewlines } from "./unified.js";

/** A unified diff of one file and how many lines it adds and removes. */
export interface FileDiff {
  /** The unified diff text (`--- a/path`, `+++ b/path`, hunks); "" when nothing changed. */
  diff: string;
  /** Lines added. */
  additions: number;
  /** Lines removed. */
  removals: number;
  /** True when either side looks binary: the diff then only says the files differ. */
  binary: boolean;
}

/** Options of {@link generateDiff}. */
export interface GenerateDiffOptions {
  /** Lines of context around each change (default 3, as git). */
  context?: number;
  /** The file's path after the change, when it moves (`+++ b/<newPath>`). */
  newPath?: string;
}

/** How far into a text git looks for a NUL byte to call it binary. */
const BINARY_SNIFF_LENGTH = 8000;

/** True when the text looks binary (a NUL character near its start, git's heuristic). */
export function looksBinary(text: string): boolean {
  return text.slice(0, BINARY_SNIFF_LENGTH).includes("\u0000");
}

/**
 * Builds a git-style unified diff from `before` to `after`.
 *
 * `before` null/undefined means the file is new (`--- /dev/null`); `after` null/undefined means it is
 * deleted (`+++ /dev/null`). Lines are split on "\n" only, so a CRLF file's lines keep their "\r"
 * and the diff applies to the file byte for byte; a missing final newline is marked with
 * `\ No newline at end of file`. Binary-looking content is not diffed: the diff reads
 * `Binary files … differ` and `binary` is true.
 *
 * @example
 * ```ts
 * const { diff, additions, removals } = generateDiff("a\nb\n", "a\nc\n", "src/x.txt");
 * // diff starts with "--- a/src/x.txt\n+++ b/src/x.txt\n@@ -1,2 +1,2 @@"
 * ```
 */
export function generateDiff(
  before: string | null | undefined,
  after: string | null | undefined,
  path: string,
  options: GenerateDiffOptions = {},
): FileDiff {
  const oldName = before == null ? "/dev/null" : `a/${path}`;
  const newName = after == null ? "/dev/null" : `b/${options.newPath ?? path}`;
  const oldText = before ?? "";
  const newText = after ?? "";
  if (before === after && (options.newPath ?? path) === path) return { diff: "", additions: 0, removals: 0, binary: false };
  if (looksBinary(oldText) || looksBinary(newText)) {
    return { diff: `Binary files ${oldName} and ${newName} differ\n`, additions: 0, removals: 0, binary: true };
  }
  const a = splitKeepingNewlines(oldText);
  const b = splitKeepingNewlines(newText);
  const script = diffLineArrays(a, b);
  const hunks = formatHunks(a, b, script, options.context ?? 3);
  const header = `--- ${oldName}\n+++ ${newName}\n`;
  // A new or deleted empty file has no hunk, but the header still records the creation or deletion.
  const unchanged = hunks === "" && before != null && after != null && (options.newPath ?? path) === path;
  const diff = unchanged ? "" : header + hunks;
  return { diff, ...scriptStats(script), binary: false };
}
