// Turns the model's replacement into the text written at a match: lines the model kept from its
// search are written as the file has them; changed and added lines are re-indented by levels into
// the file's indentation (indent-map.ts) and written in the file's characters (char-map.ts).
import { diffArrays } from "diff";
import { ReplaceError } from "../errors.js";
import { indentOf } from "../text/normalize.js";
import type { Candidate, MatchContext } from "./candidate.js";
import { type TextView, lineAt } from "./view.js";
import { Conventions, learnConventions, mapReplacement } from "./char-map.js";
import { type IndentMap, type IndentPair, detectFileUnit, inferIndentMap } from "./indent-map.js";

/** The text to write in place of candidate `c` (with "\n" line breaks). Throws when indentation cannot be mapped. */
export function transcribe(ctx: MatchContext, c: Candidate, replacement: string): string {
  const { view, search } = ctx;
  if (!c.pairs) {
    const file = view.text.slice(c.start, c.end).replace(/\r\n/g, "\n");
    return mapReplacement(search.text, file, withoutRepeatedIndent(ctx, c, replacement), new Conventions(view.text));
  }
  const fileLineOf = new Map(c.pairs);
  const sLines = search.lines;
  const rLines = replacement.split("\n");
  const conventions = new Conventions(view.text);
  for (const [k, i] of c.pairs) learnConventions(content(sLines[k]!), content(view.lines[i]!), conventions);
  // Computed up front: a match whose nesting differs from the file's is refused even when the
  // replacement only deletes lines.
  const indent = indentation(ctx, c, rLines);
  indent.map();

  const out: string[] = [];
  let si = 0;
  let removed: number[] = [];
  let added: string[] = [];
  const flush = (): void => {
    added.forEach((line, x) => {
      const k = removed[x];
      const i = k === undefined ? undefined : fileLineOf.get(k);
      if (line.trim() === "") out.push(line);
      else if (i === undefined) out.push(indent.map()(indentOf(line)) + conventions.apply(line.slice(indentOf(line).length), ""));
      else {
        const mapped = mapReplacement(content(sLines[k!]!), content(view.lines[i]!), line.slice(indentOf(line).length), conventions);
        out.push(indent.map()(indentOf(line)) + mapped);
      }
    });
    removed = [];
    added = [];
  };
  for (const part of diffArrays(sLines, rLines)) {
    if (part.removed) {
      for (const _ of part.value) removed.push(si++);
    } else if (part.added) added.push(...part.value);
    else {
      flush();
      for (const line of part.value) {
        const i = fileLineOf.get(si++);
        out.push(i === undefined ? line : view.lines[i]!);
      }
    }
  }
  flush();
  const written = out.join("\n");
  // The search ended with a newline but matched the file's last line, which has none: none is added.
  const atEnd = c.end === view.text.length && !view.text.endsWith("\n");
  return search.trailingNewline && atEnd && written.endsWith("\n") ? written.slice(0, -1) : written;
}

/** A line without its indentation and trailing whitespace. */
function content(line: string): string {
  return line.slice(indentOf(line).length).trimEnd();
}

/**
 * The indentation mapping of a whole-line match (computed once). A replacement already written in the file's
 * indentation (its first line indented as the file's, not as the search's) is taken as it is.
 */
function indentation(ctx: MatchContext, c: Candidate, rLines: readonly string[]): { map: () => IndentMap } {
  let map: IndentMap | undefined;
  const { view, search } = ctx;
  const pairs: IndentPair[] = c
    .pairs!.filter(([k, i]) => search.lines[k]!.trim() !== "" && view.lines[i]!.trim() !== "")
    .map(([k, i]) => ({ search: indentOf(search.lines[k]!), file: indentOf(view.lines[i]!), searchLine: k, fileLine: i }));
  return {
    map: () => {
      if (map) return map;
      const nonBlank = rLines.filter((l) => l.trim() !== "");
      const first = pairs[0];
      const inferred = inferIndentMap(pairs, nonBlank.map(indentOf), () => fileUnitOf(view));
      if ("conflict" in inferred) {
        const p = inferred.conflict;
        throw new ReplaceError(
          `oldString matches lines ${c.pairs![0]![1] + 1}-${c.pairs![c.pairs!.length - 1]![1] + 1} only when indentation is ignored, and the file nests them differently: oldString line ${p.searchLine + 1} is indented ${JSON.stringify(p.search)} but the file's line ${p.fileLine + 1} is indented ${JSON.stringify(p.file)}. Nothing was changed. Copy oldString with the file's own indentation and write newString the same way.`,
          { code: "indentation_mismatch", matches: [c.pairs![0]![1] + 1] },
        );
      }
      const alreadyInFileTerms = first !== undefined && nonBlank.length > 0 && first.search !== first.file && indentOf(nonBlank[0]!) === first.file;
      map = alreadyInFileTerms ? (i) => i : inferred.map;
      return map;
    },
  };
}

// The file's indentation unit, worked out once per file (replaceAll maps many blocks of one file).
const fileUnits = new WeakMap<TextView, ReturnType<typeof detectFileUnit>>();
function fileUnitOf(view: TextView): ReturnType<typeof detectFileUnit> {
  if (!fileUnits.has(view)) fileUnits.set(view, detectFileUnit(view.lines));
  return fileUnits.get(view);
}

/**
 * A search that starts at a line's text (after its indentation) with a replacement that starts with
 * that same indentation: the model wrote the whole line in newString, so the indentation is not
 * written twice.
 */
function withoutRepeatedIndent(ctx: MatchContext, c: Candidate, replacement: string): string {
  const { view, search } = ctx;
  const lineStart = view.starts[lineAt(view, c.start)]!;
  const before = view.text.slice(lineStart, c.start);
  if (before === "" || before.trim() !== "" || /^\s/.test(search.text)) return replacement;
  return replacement.startsWith(before) && !/^\s/.test(replacement.slice(before.length)) ? replacement.slice(before.length) : replacement;
}
