// unicode-normalised: curly quotes, dashes, ellipsis, odd spaces, zero-width characters and accents
// folded, whitespace collapsed; whole lines, or a one-line search inside a line.
import { type Candidate, type MatchContext, type Matcher } from "../candidate.js";
import { isInvisible } from "../../text/invisible.js";
import { canonicalUnicode, collapseWhitespace, foldPunctuation } from "../../text/normalize.js";
import { matchingWindows } from "./line-windows.js";

const unicodeLine = (line: string): string => collapseWhitespace(canonicalUnicode(line));

export const unicodeNormalisedMatcher: Matcher = {
  name: "unicode-normalised",
  find: (ctx) => {
    const found = matchingWindows(ctx, unicodeLine, ctx.search.lines, ctx.linesFolded(canonicalUnicode));
    if (ctx.search.lines.length === 1) found.push(...inlineMatches(ctx, ctx.search.lines[0]!));
    return found;
  },
};

// A character with the combining marks that follow it: folded as one, so `e` + U+0301 compares as `é`.
const CLUSTER = /[^][\p{M}]*/gu;

/** A line folded character by character, with the span of the line each folded character came from. */
function fold(line: string): { text: string; from: number[]; to: number[] } {
  let text = "";
  const from: number[] = [];
  const to: number[] = [];
  for (const m of line.matchAll(CLUSTER)) {
    const cluster = m[0];
    const start = m.index;
    const end = start + cluster.length;
    if (isInvisible(cluster)) continue;
    const folded = /^\s$/.test(cluster) ? " " : foldPunctuation(cluster).normalize("NFC");
    if (folded === " " && text.endsWith(" ")) {
      to[to.length - 1] = end;
      continue;
    }
    text += folded;
    for (let u = 0; u < folded.length; u++) {
      from.push(start);
      to.push(end);
    }
  }
  return { text, from, to };
}

/** A one-line search found inside a line once both are folded. */
function inlineMatches(ctx: MatchContext, searchLine: string): Candidate[] {
  const needle = fold(searchLine.trim()).text;
  if (needle === "" || !/[^\x00-\x7f]/.test(ctx.view.text)) return [];
  const found: Candidate[] = [];
  ctx.view.lines.forEach((line, i) => {
    if (!/[^\x00-\x7f]/.test(line)) return;
    const f = fold(line);
    for (let at = f.text.indexOf(needle); at !== -1; at = f.text.indexOf(needle, at + 1)) {
      const last = at + needle.length - 1;
      // Only whole characters of the line: not half a surrogate pair, not one dot of an ellipsis.
      if ((at > 0 && f.from[at - 1] === f.from[at]) || (last + 1 < f.to.length && f.to[last + 1] === f.to[last])) continue;
      const start = ctx.view.starts[i]! + f.from[at]!;
      const end = ctx.view.starts[i]! + f.to[at + needle.length - 1]!;
      // Whole-line matches are already in the list; a match must not start or end on a folded space.
      if (line.slice(f.from[at]!, f.to[at + needle.length - 1]!).trim() === line.trim()) continue;
      found.push({ start, end });
    }
  });
  return found;
}
