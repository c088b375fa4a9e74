// Normalisations used by the fuzzy passes. Each maps text a model may have garbled to a canonical
// form; comparisons happen between canonical forms, replacements always use the file's own text.

import { stripInvisible } from "./invisible.js";

// Typographic characters models and editors swap for ASCII ones (and back).
const PUNCTUATION: Record<string, string> = {
  "\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-", "\u2014": "-", "\u2015": "-", "\u2212": "-",
  "\u2018": "'", "\u2019": "'", "\u201A": "'", "\u201B": "'", "\u2032": "'",
  "\u201C": '"', "\u201D": '"', "\u201E": '"', "\u201F": '"', "\u2033": '"', "\u00AB": '"', "\u00BB": '"',
  "\u2039": "'", "\u203A": "'",
  "\u00A0": " ", "\u2002": " ", "\u2003": " ", "\u2004": " ", "\u2005": " ", "\u2006": " ",
  "\u2007": " ", "\u2008": " ", "\u2009": " ", "\u200A": " ", "\u202F": " ", "\u205F": " ", "\u3000": " ",
  "\u2026": "...",
};
const PUNCTUATION_RE = /[\u2010-\u2015\u2212\u2018-\u201F\u2032\u2033\u00AB\u00BB\u2039\u203A\u00A0\u2002-\u200A\u202F\u205F\u3000\u2026]/g;

/** Folds curly quotes and guillemets, dashes, ellipsis and non-breaking/odd spaces to their ASCII forms. */
export function foldPunctuation(text: string): string {
  return text.replace(PUNCTUATION_RE, (c) => PUNCTUATION[c] ?? c);
}

// Folding and NFC change only non-ASCII characters, so ASCII text (most code) skips both.
const NON_ASCII = /[^\x00-\x7f]/;

/**
 * Canonical Unicode form: zero-width characters removed, punctuation folded, then NFC (so composed
 * and decomposed accents compare equal).
 */
export function canonicalUnicode(text: string): string {
  return NON_ASCII.test(text) ? foldPunctuation(stripInvisible(text)).normalize("NFC") : text;
}

/** Trims and collapses every run of whitespace to one space. */
export function collapseWhitespace(text: string): string {
  return text.trim().replace(/\s+/g, " ");
}

const ESCAPES: Record<string, string> = { n: "\n", t: "\t", r: "\r", "'": "'", '"': '"', "`": "`", "\\": "\\", $: "$", "\n": "\n" };

/** Undoes one level of string escaping (`\n`, `\t`, `\"`, `\\`…), as when a model double-escapes its input. */
export function unescapeText(text: string): string {
  return text.replace(/\\(n|t|r|'|"|`|\\|\$|\n)/g, (_, c: string) => ESCAPES[c] ?? c);
}

/**
 * A line's leading whitespace: tabs, spaces and the odd spaces an indentation copied from the web
 * may hold (NBSP); zero-width characters and U+FEFF are not indentation.
 */
export function indentOf(line: string): string {
  const m = /^[^\S\uFEFF]*/.exec(line);
  return m ? m[0] : "";
}
