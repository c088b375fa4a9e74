// Turns the model's replacement into the text written at a match: lines the model kept from its
// search are written as the file has them; changed and added lines are re-indented by levels into
// the file's indentation (indent-map.ts) and written in the file's characters (char-map.ts).
import { diffArrays } from "diff";
import { ReplaceError } from "../errors.js";
import { indentOf } from "../text/normalize.js";
import { similarity } from "../text/similarity.js";
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
  // The indentation written for the last line the model indented a given way: a new line indented
  // as that line is indented the same (kernel-style alignment spaces, the file's odd space character).
  const writtenIndentFor = new Map<string, string>();
  const write = (line: string, written: string): void => {
    if (line.trim() !== "" && !indent.inFileTerms()) writtenIndentFor.set(indentOf(line), indentOf(written));
    out.push(written);
  };
  let si = 0;
  let removed: number[] = [];
  let added: string[] = [];
  const flush = (): void => {
    const sources = indentSources(added, removed.map((k) => sLines[k]!));
    added.forEach((line, x) => {
      const k = removed[x];
      const i = k === undefined ? undefined : fileLineOf.get(k);
      if (line.trim() === "") {
        out.push(line);
        return;
      }
      // A changed line indented as the search line it rewrites keeps that file line's indentation;
      // another takes the indentation written for the last line indented as it, else the level map.
      const source = sources[x] === undefined ? undefined : removed[sources[x]!];
      const sourceLine = source === undefined ? undefined : fileLineOf.get(source);
      const lead =
        !indent.inFileTerms() && sourceLine !== undefined && indentOf(line) === indentOf(sLines[source!]!)
          ? indentOf(view.lines[sourceLine]!)
          : ((indent.inFileTerms() ? undefined : writtenIndentFor.get(indentOf(line))) ?? indent.map()(indentOf(line)));
      const text = line.slice(indentOf(line).length);
      write(line, lead + (i === undefined ? conventions.apply(text, "") : mapReplacement(content(sLines[k!]!), content(view.lines[i]!), text, conventions)));
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
        write(line, i === undefined ? line : view.lines[i]!);
      }
    }
  }
  flush();
  const written = out.join("\n");
  // The search ended with a newline but matched the file's last line, which has none: none is added.
  const atEnd = c.end === view.text.length && !view.text.endsWith("\n");
  return search.trailingNewline && atEnd && written.endsWith("\n") ? written.slice(0, -1) : written;
}

/**
 * For each added line, the removed line (an index into `removedLines`) it rewrites, paired in order
 * by resemblance — the same first word, or similar text — rather than by position, so an inserted
 * continuation line is not taken for the statement after it.
 */
function indentSources(added: readonly string[], removedLines: readonly string[]): Array<number | undefined> {
  let next = 0;
  return added.map((line) => {
    for (let r = next; r < removedLines.length; r++) {
      if (!rewrites(content(line), content(removedLines[r]!))) continue;
      next = r + 1;
      return r;
    }
    return undefined;
  });
}

function rewrites(a: string, b: string): boolean {
  const word = (s: string): string | undefined => /^\W*(\w+)/u.exec(s)?.[1];
  const wa = word(a);
  return (wa !== undefined && wa === word(b)) || similarity(a, b, 0.6) > 0;
}

/** A line without its indentation and trailing whitespace. */
function content(line: string): string {
  return line.slice(indentOf(line).length).trimEnd();
}

/**
 * The indentation mapping of a whole-line match (computed once). A replacement already written in the file's
 * indentation (its first line indented as the file's, not as the search's) is taken as it is.
 */
function indentation(ctx: MatchContext, c: Candidate, rLines: readonly string[]): { map: () => IndentMap; inFileTerms: () => boolean } {
  let map: IndentMap | undefined;
  let inFileTerms = false;
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
      inFileTerms = alreadyInFileTerms;
      map = alreadyInFileTerms ? (i) => i : inferred.map;
      return map;
    },
    inFileTerms: () => inFileTerms,
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
