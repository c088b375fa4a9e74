// Matchers that compare the search with every window of as many file lines, line by line, after
// normalising both sides the same way. They only differ in the normalisation.
import { type Candidate, type MatchContext, type Matcher, alignedPairs } from "../candidate.js";
import { collapseWhitespace } from "../../text/normalize.js";

/** Windows of the file whose lines equal the search's lines under `normalize`. */
export function matchingWindows(
  ctx: MatchContext,
  normalize: (line: string) => string,
  searchLines = ctx.search.lines,
  hay: readonly string[] = ctx.linesAs(normalize),
): Candidate[] {
  const needle = searchLines.map(normalize);
  const m = needle.length;
  const found: Candidate[] = [];
  if (m === 0 || needle.every((l) => l === "")) return found;
  outer: for (let i = 0; i + m <= hay.length; i++) {
    for (let k = 0; k < m; k++) if (hay[i + k] !== needle[k]) continue outer;
    found.push(ctx.lineSpan(i, i + m - 1, alignedPairs(i, m)));
  }
  return found;
}

const trim = (line: string): string => line.trim();

/** line-trimmed: every line equal once leading and trailing whitespace is removed (wrong indentation, tabs vs spaces, trailing spaces). */
export const lineTrimmedMatcher: Matcher = { name: "line-trimmed", find: (ctx) => matchingWindows(ctx, trim) };

/** whitespace-normalised: every run of whitespace counts as one space; a one-line search may also match inside a line. */
export const whitespaceNormalisedMatcher: Matcher = {
  name: "whitespace-normalised",
  find: (ctx) => {
    const found = matchingWindows(ctx, collapseWhitespace);
    if (ctx.search.lines.length === 1) found.push(...inlineMatches(ctx, ctx.search.lines[0]!));
    return found;
  },
};

/**
 * A one-line search found inside lines, any run of spaces and tabs standing for any other. Each line
 * is collapsed with a map back to its own offsets and searched with indexOf: no pattern is built from
 * the search, so a search of any length (a 100,000-character line) costs linear time and never hits
 * the engine's limit on a pattern's size.
 */
function inlineMatches(ctx: MatchContext, searchLine: string): Candidate[] {
  const tokens = searchLine.trim().split(/\s+/).filter(Boolean);
  if (tokens.length < 2) return [];
  const needle = tokens.join(" ");
  const found: Candidate[] = [];
  ctx.view.lines.forEach((line, i) => {
    if (!line.includes(tokens[0]!)) return;
    const { text, from } = collapseBlanks(line);
    for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) {
      const start = from[at]!;
      const end = from[at + needle.length - 1]! + 1;
      // Whole-line matches are already in the list.
      if (end - start !== line.trim().length) found.push({ start: ctx.view.starts[i]! + start, end: ctx.view.starts[i]! + end });
    }
  });
  return found;
}

/** `line` with each run of spaces and tabs as one space, and for each of its characters the offset in `line` it came from. */
function collapseBlanks(line: string): { text: string; from: number[] } {
  const parts: string[] = [];
  const from: number[] = [];
  for (let k = 0; k < line.length; k++) {
    const c = line[k]!;
    if (c === " " || c === "\t") {
      if (parts[parts.length - 1] === " ") continue;
      parts.push(" ");
    } else parts.push(c);
    from.push(k);
  }
  return { text: parts.join(""), from };
}

/** indentation-flexible: the block's relative indentation must be the search's; only the common indentation may differ. */
export const indentationFlexibleMatcher: Matcher = {
  name: "indentation-flexible",
  find: (ctx) => {
    const search = ctx.search.lines;
    const m = search.length;
    const sMin = minIndent(search, 0, m);
    const needle = search.map((l) => (l.trim() === "" ? "" : l.slice(sMin)));
    const lines = ctx.view.lines;
    const found: Candidate[] = [];
    if (needle.every((l) => l === "")) return found;
    // Equal relative indentation implies equal trimmed lines: comparing the (cached) trimmed forms
    // first rejects almost every window without computing its indentation.
    const trimmed = ctx.linesAs(trim);
    const needleTrimmed = search.map(trim);
    outer: for (let i = 0; i + m <= lines.length; i++) {
      for (let k = 0; k < m; k++) if (trimmed[i + k] !== needleTrimmed[k]) continue outer;
      const fMin = minIndent(lines, i, i + m);
      for (let k = 0; k < m; k++) {
        const line = lines[i + k]!;
        const rel = line.trim() === "" ? "" : line.slice(fMin);
        if (rel !== needle[k]) continue outer;
      }
      found.push(ctx.lineSpan(i, i + m - 1, alignedPairs(i, m)));
    }
    return found;
  },
};

function minIndent(lines: readonly string[], from: number, to: number): number {
  let min = Infinity;
  for (let i = from; i < to; i++) {
    const line = lines[i]!;
    if (line.trim() === "") continue;
    const indent = line.length - line.trimStart().length;
    if (indent < min) min = indent;
  }
  return min === Infinity ? 0 : min;
}
