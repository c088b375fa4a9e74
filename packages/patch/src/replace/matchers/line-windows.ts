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

/** A one-line search found inside lines, any whitespace run standing for any other. */
function inlineMatches(ctx: MatchContext, searchLine: string): Candidate[] {
  const tokens = searchLine.trim().split(/\s+/).filter(Boolean);
  if (tokens.length < 2) return [];
  const pattern = new RegExp(tokens.map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("[ \\t]+"), "g");
  const found: Candidate[] = [];
  ctx.view.lines.forEach((line, i) => {
    for (const m of line.matchAll(pattern)) {
      const start = ctx.view.starts[i]! + m.index;
      // Whole-line matches are already in the list.
      if (m[0].length !== line.trim().length) found.push({ start, end: start + m[0].length });
    }
  });
  return found;
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
