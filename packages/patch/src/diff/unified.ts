// Renders an edit script as unified-diff hunks (git's conventions: `@@ -l,s +l,s @@`, a count of 1
// omitted, an empty side numbered from the line before it, `\ No newline at end of file`).
import type { EditRun } from "./edit-script.js";

/** Lines of a text, each with its "\n" (the last one may lack it). */
export function splitKeepingNewlines(text: string): string[] {
  const lines: string[] = [];
  let start = 0;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", start)) {
    lines.push(text.slice(start, i + 1));
    start = i + 1;
  }
  if (start < text.length) lines.push(text.slice(start));
  return lines;
}

interface Change {
  aStart: number;
  aEnd: number;
  bStart: number;
  bEnd: number;
}

/** The hunks (no file header) of a unified diff of `a` → `b`; "" when the script has no change. */
export function formatHunks(a: readonly string[], b: readonly string[], script: readonly EditRun[], context: number): string {
  const changes = changeRegions(script);
  if (changes.length === 0) return "";
  let out = "";
  let k = 0;
  while (k < changes.length) {
    // A hunk takes every following change whose gap of kept lines fits in two contexts.
    let last = k;
    while (last + 1 < changes.length && changes[last + 1]!.aStart - changes[last]!.aEnd <= 2 * context) last++;
    const first = changes[k]!;
    const end = changes[last]!;
    const aFrom = Math.max(0, first.aStart - context);
    const bFrom = first.bStart - (first.aStart - aFrom);
    const aTo = Math.min(a.length, end.aEnd + context);
    const bTo = end.bEnd + (aTo - end.aEnd);
    out += `@@ -${range(aFrom, aTo - aFrom)} +${range(bFrom, bTo - bFrom)} @@\n`;
    let ai = aFrom;
    for (let c = k; c <= last; c++) {
      const ch = changes[c]!;
      for (; ai < ch.aStart; ai++) out += line(" ", a[ai]!);
      for (let i = ch.aStart; i < ch.aEnd; i++) out += line("-", a[i]!);
      for (let j = ch.bStart; j < ch.bEnd; j++) out += line("+", b[j]!);
      ai = ch.aEnd;
    }
    for (; ai < aTo; ai++) out += line(" ", a[ai]!);
    k = last + 1;
  }
  return out;
}

function changeRegions(script: readonly EditRun[]): Change[] {
  const changes: Change[] = [];
  let ai = 0;
  let bi = 0;
  let open: Change | undefined;
  for (const run of script) {
    if (run.type === "equal") {
      if (open) changes.push(open);
      open = undefined;
      ai += run.count;
      bi += run.count;
      continue;
    }
    open ??= { aStart: ai, aEnd: ai, bStart: bi, bEnd: bi };
    if (run.type === "delete") ai = open.aEnd = ai + run.count;
    else bi = open.bEnd = bi + run.count;
  }
  if (open) changes.push(open);
  return changes;
}

function range(start: number, count: number): string {
  // An empty side is numbered by the line before it (0 for the start of the file).
  if (count === 0) return `${start},0`;
  return count === 1 ? `${start + 1}` : `${start + 1},${count}`;
}

function line(prefix: string, text: string): string {
  return text.endsWith("\n") ? prefix + text : `${prefix}${text}\n\\ No newline at end of file\n`;
}
