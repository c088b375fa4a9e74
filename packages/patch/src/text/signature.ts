// What a line of code means beyond its words: its numbers, operators and punctuation. Two lines that
// differ only in letters (a typo in a name, a word of a comment) keep the same signature; lines whose
// numbers, comparison or logic differ (`a > 0` / `a < 0`, `limit = 10` / `limit = 20`, `!ok` / `ok`)
// do not. The fuzzy matchers accept a differing line only when its signature is the same, so stale
// code is never taken for a typo.

const QUOTES = /['"`\u2018\u2019\u201C\u201D]/g;
const LETTERS_AND_SPACE = /[\p{L}_$\s]/gu;

/** The digits and punctuation of a line, quotes unified. */
export function codeSignature(line: string): string {
  return line.replace(QUOTES, '"').replace(LETTERS_AND_SPACE, "");
}

/** True when two lines differ at most in letters and white space. */
export function sameSignature(a: string, b: string): boolean {
  return a === b || codeSignature(a) === codeSignature(b);
}
