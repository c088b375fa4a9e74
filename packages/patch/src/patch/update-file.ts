// Applies the `@@` chunks of one Update File to a file's text. Context lines keep the file's own
// text and line ending (a fuzzy match never rewrites them); removed lines go; added lines take the
// file's first line ending. Whether the file ends with a newline is kept as it was.
import { PatchApplyError } from "../errors.js";
import { type LineFile, endsWithNewline, firstEol, joinLineFile, splitLineFile } from "../text/lines.js";
import { findNearMiss } from "../text/near-miss.js";
import { LineIndex } from "./seek.js";
import type { ChunkLine, UpdateChunk } from "./types.js";

interface Replacement {
  start: number;
  /** How many file lines the chunk covers. */
  length: number;
  lines: readonly ChunkLine[];
}

/** The new text of `content` after the chunks; throws {@link PatchApplyError} when one does not fit. */
export function applyChunks(path: string, content: string, chunks: readonly UpdateChunk[]): string {
  const file = splitLineFile(content);
  const index = new LineIndex(file.lines);
  const replacements: Replacement[] = [];
  let cursor = 0;
  chunks.forEach((chunk, k) => {
    if (chunk.changeContext !== undefined) {
      const found = index.seek([chunk.changeContext], cursor, false);
      if (!found) throw notFound(path, k, [chunk.changeContext], file.lines, "the '@@' context line");
      cursor = found.index + 1;
    }
    if (chunk.oldLines.length === 0) {
      // Pure addition: appended at the end of the file, as Codex's apply_patch does (the format's
      // reference); an `@@` context line only moves the cursor, it does not place added lines.
      replacements.push({ start: file.lines.length, length: 0, lines: chunk.lines });
      return;
    }
    let lines: readonly ChunkLine[] = chunk.lines;
    let found = index.seek(chunk.oldLines, cursor, chunk.isEndOfFile);
    if (!found) {
      // Models often end a chunk with blank context lines standing for the file's final newline.
      const trimmed = dropTrailingBlankOldLines(lines);
      if (trimmed.length !== lines.length) {
        const old = trimmed.filter((l) => l.kind !== "add").map((l) => l.text);
        if (old.length > 0) {
          const retry = index.seek(old, cursor, chunk.isEndOfFile);
          if (retry) {
            found = retry;
            lines = trimmed;
          }
        }
      }
    }
    const length = lines.filter((l) => l.kind !== "add").length;
    if (!found || found.index < cursor) {
      throw notFound(path, k, chunk.oldLines, file.lines, chunk.isEndOfFile ? "the lines at the end of the file" : "the lines");
    }
    replacements.push({ start: found.index, length, lines });
    cursor = found.index + length;
  });
  return joinLineFile(rebuild(path, file, replacements, endsWithNewline(content)));
}

function dropTrailingBlankOldLines(lines: readonly ChunkLine[]): readonly ChunkLine[] {
  let end = lines.length;
  while (end > 0 && lines[end - 1]!.kind !== "add" && lines[end - 1]!.text.trim() === "") end--;
  return lines.slice(0, end);
}

function rebuild(path: string, file: LineFile, replacements: Replacement[], finalNewline: boolean): LineFile {
  // Stable sort: pure additions at the end of the file come after a chunk that ends there.
  const sorted = replacements.map((r, order) => ({ r, order })).sort((x, y) => x.r.start - y.r.start || x.order - y.order);
  const eol = firstEol(file);
  const out: LineFile = { bom: file.bom, lines: [], eols: [] };
  let pos = 0;
  for (const { r } of sorted) {
    if (r.start < pos) {
      throw new PatchApplyError(`Two chunks of the patch overlap in ${path}; give each chunk its own lines.`, {
        code: "context_not_found",
        path,
      });
    }
    for (; pos < r.start; pos++) push(out, file.lines[pos]!, file.eols[pos]!);
    for (const line of r.lines) {
      if (line.kind === "add") push(out, line.text, eol);
      else {
        if (line.kind === "context") push(out, file.lines[pos]!, file.eols[pos]!);
        pos++;
      }
    }
  }
  for (; pos < file.lines.length; pos++) push(out, file.lines[pos]!, file.eols[pos]!);
  // Every line but the last needs an ending; the last has one exactly when the original file did.
  for (let i = 0; i < out.eols.length - 1; i++) if (out.eols[i] === "") out.eols[i] = eol;
  const last = out.eols.length - 1;
  if (last >= 0) out.eols[last] = finalNewline ? out.eols[last] || eol : "";
  return out;
}

function push(file: LineFile, text: string, eol: string): void {
  file.lines.push(text);
  file.eols.push(eol);
}

function notFound(path: string, chunk: number, context: string[], fileLines: readonly string[], what: string): PatchApplyError {
  const nearMiss = findNearMiss(fileLines, context);
  const hint = nearMiss
    ? ` The closest region is lines ${nearMiss.startLine}-${nearMiss.endLine} (similarity ${nearMiss.similarity}):\n${nearMiss.text}\nRe-read the file and copy the lines exactly.`
    : " Re-read the file and copy the lines exactly.";
  return new PatchApplyError(
    `Failed to find ${what} of chunk ${chunk + 1} in ${path}:\n${context.join("\n")}\n${hint}`,
    { code: "context_not_found", path, chunk: chunk + 1, context, ...(nearMiss ? { nearMiss } : {}) },
  );
}
