// Parser of the `*** Begin Patch` format (Codex / OpenCode `apply_patch`). Lenient where models are
// sloppy but the meaning is clear (whitespace around markers, heredoc or code-fence wrappers, blank
// lines between operations); strict where a guess could corrupt a file (unknown headers, stray lines
// inside a chunk, empty patches and empty updates are errors naming the line).
import { PatchParseError } from "../errors.js";
import type { ChunkLine, ParsedPatch, PatchHunk, UpdateChunk, UpdateFileHunk } from "./types.js";

const BEGIN = "*** Begin Patch";
const END = "*** End Patch";
const ADD_RE = /^\*\*\*\s*Add File:\s*(.*)$/;
const DELETE_RE = /^\*\*\*\s*Delete File:\s*(.*)$/;
const UPDATE_RE = /^\*\*\*\s*Update File:\s*(.*)$/;
const MOVE_RE = /^\*\*\*\s*Move to:\s*(.*)$/;
const END_OF_FILE_RE = /^\*\*\*\s*End of File$/;
const END_PATCH_RE = /^\*\*\*\s*End Patch$/;
/** Lines that end a chunk even when indented (a real context line never reads like this). */
const MARKER_RE = /^\*\*\*\s*(Add File:|Delete File:|Update File:|Move to:|End of File$|End Patch$)/;
/** A unified-diff hunk header (`@@ -12,3 +12,4 @@ …`): models mix it in; it carries no usable context. */
const UNIFIED_HUNK_RE = /^@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@/;
/** `apply_patch <<'EOF'`, `cat <<EOF`, `<<"EOF"`: the heredoc a model wraps a patch in. */
const HEREDOC_RE = /^(?:(?:apply_patch|applypatch|cat)\s*)?<<-?\s*(['"]?)([A-Za-z_][A-Za-z0-9_]*)\1\s*$/;
const FENCE_RE = /^```[A-Za-z-]*\s*$/;

interface Line {
  text: string;
  /** 1-based line number in the original patch text. */
  no: number;
}

/**
 * Parses a `*** Begin Patch` … `*** End Patch` text into its file operations.
 *
 * Accepts `*** Add File: p` (then `+` lines), `*** Delete File: p`, `*** Update File: p` (optionally
 * `*** Move to: q`, then `@@` chunks of ` `/`-`/`+` lines, a chunk optionally closed by
 * `*** End of File`). Throws {@link PatchParseError} (with the 1-based line) on malformed input.
 */
export function parsePatch(text: string): ParsedPatch {
  let lines: Line[] = text.split("\n").map((t, i) => ({ text: t.endsWith("\r") ? t.slice(0, -1) : t, no: i + 1 }));
  lines = unwrap(trimBlank(lines));
  const first = lines[0];
  const last = lines[lines.length - 1];
  if (!first || !last) throw new PatchParseError("the patch is empty; it must start with '*** Begin Patch'", 1, "");
  if (first.text.trim() !== BEGIN) {
    throw new PatchParseError(`the first line must be '${BEGIN}', got '${first.text}'`, first.no, first.text);
  }
  if (lines.length < 2 || !END_PATCH_RE.test(last.text.trim())) {
    throw new PatchParseError(
      `the last line must be '${END}', got '${last.text}' (was the patch cut short?)`,
      last.no,
      last.text,
    );
  }
  const body = lines.slice(1, -1);
  const hunks: PatchHunk[] = [];
  for (let i = skipBlank(body, 0); i < body.length; i = skipBlank(body, i)) {
    const line = body[i]!;
    const t = line.text.trim();
    let m: RegExpExecArray | null;
    if ((m = ADD_RE.exec(t))) {
      const path = requirePath(m[1]!, line);
      const parsed = parseAddBody(body, i + 1);
      hunks.push({ type: "add", path, contents: parsed.contents, line: line.no });
      i = parsed.next;
    } else if ((m = DELETE_RE.exec(t))) {
      hunks.push({ type: "delete", path: requirePath(m[1]!, line), line: line.no });
      i++;
    } else if ((m = UPDATE_RE.exec(t))) {
      const parsed = parseUpdate(body, i, requirePath(m[1]!, line));
      hunks.push(parsed.hunk);
      i = parsed.next;
    } else if (END_PATCH_RE.test(t)) {
      throw new PatchParseError(`'${END}' appears before the end of the patch`, line.no, line.text);
    } else {
      throw new PatchParseError(
        `'${line.text}' is not a valid hunk header. Valid hunk headers: '*** Add File: {path}', '*** Delete File: {path}', '*** Update File: {path}'`,
        line.no,
        line.text,
      );
    }
  }
  if (hunks.length === 0) {
    throw new PatchParseError("the patch contains no file operations", last.no, last.text);
  }
  return { hunks };
}

/** Index of the first non-blank line at or after `i`. */
function skipBlank(body: readonly Line[], i: number): number {
  while (i < body.length && body[i]!.text.trim() === "") i++;
  return i;
}

function trimBlank(lines: Line[]): Line[] {
  let start = 0;
  let end = lines.length;
  while (start < end && lines[start]!.text.trim() === "") start++;
  while (end > start && lines[end - 1]!.text.trim() === "") end--;
  return lines.slice(start, end);
}

/** Removes a heredoc (`<<'EOF'` … `EOF`) or Markdown code-fence wrapper, possibly nested. */
function unwrap(lines: Line[]): Line[] {
  for (let round = 0; round < 2 && lines.length >= 2; round++) {
    const head = lines[0]!.text.trim();
    const tail = lines[lines.length - 1]!.text.trim();
    const heredoc = HEREDOC_RE.exec(head);
    if (heredoc && tail === heredoc[2]) lines = trimBlank(lines.slice(1, -1));
    else if (FENCE_RE.test(head) && tail === "```") lines = trimBlank(lines.slice(1, -1));
    else break;
  }
  return lines;
}

function requirePath(raw: string, line: Line): string {
  const path = raw.trim();
  if (path === "") throw new PatchParseError("the file operation names no path", line.no, line.text);
  return path;
}

/** `+` lines of an Add File. A blank line between `+` lines is read as an empty line of the file. */
function parseAddBody(body: Line[], start: number): { contents: string; next: number } {
  let contents = "";
  let i = start;
  while (i < body.length) {
    const text = body[i]!.text;
    if (text.startsWith("+")) {
      contents += text.slice(1) + "\n";
      i++;
      continue;
    }
    if (text.trim() === "") {
      let j = i;
      while (j < body.length && body[j]!.text.trim() === "") j++;
      if (j < body.length && body[j]!.text.startsWith("+")) {
        contents += "\n".repeat(j - i);
        i = j;
        continue;
      }
    }
    break;
  }
  return { contents, next: i };
}

function parseUpdate(body: Line[], start: number, path: string): { hunk: UpdateFileHunk; next: number } {
  const header = body[start]!;
  const hunk: UpdateFileHunk = { type: "update", path, chunks: [], line: header.no };
  let i = start + 1;
  const move = body[i] ? MOVE_RE.exec(body[i]!.text.trim()) : null;
  if (move) {
    hunk.movePath = requirePath(move[1]!, body[i]!);
    i++;
  }
  for (i = skipBlank(body, i); i < body.length; i = skipBlank(body, i)) {
    const t = body[i]!.text.trim();
    if (MARKER_RE.test(t) || t.startsWith("***")) break;
    const chunk = parseChunk(body, i, hunk.chunks.length === 0);
    hunk.chunks.push(chunk.chunk);
    i = chunk.next;
  }
  if (hunk.chunks.length === 0) {
    throw new PatchParseError(`'*** Update File: ${path}' has no changes (an update needs at least one @@ chunk)`, header.no, header.text);
  }
  return { hunk, next: i };
}

function parseChunk(body: Line[], start: number, first: boolean): { chunk: UpdateChunk; next: number } {
  const head = body[start]!;
  const headText = head.text.trimStart();
  let i = start;
  let changeContext: string | undefined;
  if (headText.startsWith("@@")) {
    if (headText.trim() === "@@" || UNIFIED_HUNK_RE.test(headText)) changeContext = undefined;
    else if (headText.startsWith("@@ ")) changeContext = headText.slice(3);
    else {
      throw new PatchParseError(
        `invalid chunk header '${head.text}': write '@@' or '@@ <a line of the file to search for>'`,
        head.no,
        head.text,
      );
    }
    i++;
  } else if (!first) {
    throw new PatchParseError(
      `expected an '@@' chunk header, got '${head.text}'. Every line of a chunk starts with ' ' (context), '+' (add) or '-' (remove)`,
      head.no,
      head.text,
    );
  }
  const lines: ChunkLine[] = [];
  let isEndOfFile = false;
  for (; i < body.length; i++) {
    const text = body[i]!.text;
    const t = text.trim();
    if (END_OF_FILE_RE.test(t)) {
      isEndOfFile = true;
      i++;
      break;
    }
    if (MARKER_RE.test(t) || text.startsWith("@@") || text.startsWith("***")) break;
    const c = text[0];
    if (text === "") lines.push({ kind: "context", text: "" });
    else if (c === " ") lines.push({ kind: "context", text: text.slice(1) });
    else if (c === "+") lines.push({ kind: "add", text: text.slice(1) });
    else if (c === "-") lines.push({ kind: "remove", text: text.slice(1) });
    else {
      throw new PatchParseError(
        `unexpected line '${text}' in an update chunk. Every line must start with ' ' (context), '+' (add) or '-' (remove); a new chunk starts with '@@'`,
        body[i]!.no,
        text,
      );
    }
  }
  if (lines.length === 0) {
    throw new PatchParseError("an update chunk has no lines", head.no, head.text);
  }
  const chunk: UpdateChunk = {
    lines,
    oldLines: lines.filter((l) => l.kind !== "add").map((l) => l.text),
    newLines: lines.filter((l) => l.kind !== "remove").map((l) => l.text),
    isEndOfFile,
    line: head.no,
  };
  if (changeContext !== undefined) chunk.changeContext = changeContext;
  return { chunk, next: i };
}
