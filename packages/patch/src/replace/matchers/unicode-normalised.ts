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

const COMBINING = /^\p{M}$/u;
const WHITESPACE = /^\s$/;

/**
 * A line folded character by character (a character with the combining marks that follow it folded
 * as one, so `e` + U+0301 compares as `é`), with the span of the line each folded character came
 * from. One pass, with plain ASCII characters copied as they are: linear even on a
 * 100,000-character line.
 */
function fold(line: string): { text: string; from: number[]; to: number[] } {
  const parts: string[] = [];
  const from: number[] = [];
  const to: number[] = [];
  let lastWasSpace = false;
  // A line repeats few distinct characters: each is folded once.
  const seen = new Map<string, string>();
  for (let start = 0; start < line.length; ) {
    const code = line.charCodeAt(start);
    if (code > 0x20 && code < 0x7f && !(start + 1 < line.length && line.charCodeAt(start + 1) >= 0x300 && COMBINING.test(nextChar(line, start + 1)))) {
      parts.push(line[start]!);
      from.push(start);
      to.push(start + 1);
      lastWasSpace = false;
      start++;
      continue;
    }
    let end = start + nextChar(line, start).length;
    while (end < line.length && COMBINING.test(nextChar(line, end))) end += nextChar(line, end).length;
    const cluster = line.slice(start, end);
    if (isInvisible(cluster)) {
      start = end;
      continue;
    }
    let folded = seen.get(cluster);
    if (folded === undefined) {
      folded = WHITESPACE.test(cluster) ? " " : foldPunctuation(cluster).normalize("NFC");
      seen.set(cluster, folded);
    }
    if (folded === " " && lastWasSpace) {
      to[to.length - 1] = end;
      start = end;
      continue;
    }
    parts.push(folded);
    for (let u = 0; u < folded.length; u++) {
      from.push(start);
      to.push(end);
    }
    lastWasSpace = folded.endsWith(" ");
    start = end;
  }
  return { text: parts.join(""), from, to };
}

/** The whole character (one or two code units) at `i`. */
function nextChar(text: string, i: number): string {
  const code = text.charCodeAt(i);
  return code >= 0xd800 && code <= 0xdbff && i + 1 < text.length ? text.slice(i, i + 2) : text[i]!;
}

/** A one-line search found inside a line once both are folded. */
function inlineMatches(ctx: MatchContext, searchLine: string): Candidate[] {
  // Folding changes only non-ASCII text: an ASCII search in an ASCII line was the earlier matchers' to find.
  const asciiSearch = !/[^\x00-\x7f]/.test(searchLine);
  if (asciiSearch && !/[^\x00-\x7f]/.test(ctx.view.text)) return [];
  const needle = fold(searchLine.trim()).text;
  if (needle === "") return [];
  const found: Candidate[] = [];
  ctx.view.lines.forEach((line, i) => {
    if (asciiSearch && !/[^\x00-\x7f]/.test(line)) return;
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
