import { compileSegments, matchSegments } from "./glob-match.js";
import { LruCache } from "./lru-cache.js";

/**
 * How a compiled wildcard tests text. The common shapes (`*`, literal, `prefix*`, `cmd *`,
 * `*suffix`, `*infix*`) get string-method fast paths; everything else (`?`, `\`, `**​/`, several
 * stars) the linear-time piece matcher — never a regular expression.
 */
export type WildcardKind = "any" | "exact" | "prefix" | "command" | "suffix" | "contains" | "segments";

/** A compiled wildcard pattern. */
export interface WildcardMatcher {
  /** The source pattern. */
  readonly pattern: string;
  /** Which fast path {@link WildcardMatcher.test} uses. */
  readonly kind: WildcardKind;
  /** The literal text the fast path compares with ("" for `any` and `regex`). */
  readonly literal: string;
  /** Whether `text` matches the whole pattern. */
  test(text: string): boolean;
}

const CACHE_CAPACITY = 4096;
const cache = new LruCache<string, WildcardMatcher>(CACHE_CAPACITY);

/**
 * Compiles a wildcard (OpenCode's semantics): `*` matches any text including `/` and newlines, `?`
 * exactly one character, everything else itself (case-sensitive, whole text). A pattern ending in
 * ` *` also matches the text without that tail, so `git status *` matches `git status`. For paths:
 * `**​/` at the start or after a separator matches zero or more whole folders (`**​/*.env` matches
 * `.env` and `a/b/.env`), a final `/**` matches the folder and everything below it, and `\` in a
 * pattern matches `\` or `/`, so rules written with Windows separators match `/`-separated paths.
 * Matching takes time linear in the text whatever the number of stars (no regular expression, no
 * backtracking). Compiled matchers are cached in a bounded module-level LRU.
 */
export function compileWildcard(pattern: string): WildcardMatcher {
  let matcher = cache.get(pattern);
  if (!matcher) {
    matcher = build(pattern);
    cache.set(pattern, matcher);
  }
  return matcher;
}

/** Whether `text` matches the wildcard `pattern`; see {@link compileWildcard}. */
export function matchWildcard(pattern: string, text: string): boolean {
  return compileWildcard(pattern).test(text);
}

/**
 * The reference translation to a regular expression, for tests and comparisons only: matching uses
 * the linear-time matcher of {@link compileWildcard}, which must agree with it. Do not run the
 * result on long untrusted text: a pattern with many `*` backtracks.
 */
export function wildcardToRegExp(pattern: string): RegExp {
  const { body, tail } = splitTail(pattern);
  let source = "";
  for (let i = 0; i < body.length; ) {
    const c = body[i]!;
    if (c !== "*") {
      source += c === "?" ? "." : c === "\\" ? "[\\\\/]" : c.replace(/[.+^${}()|[\]\\/]/g, "\\$&");
      i++;
      continue;
    }
    let run = 0;
    while (body[i + run] === "*") run++;
    const atBoundary = i === 0 || isSeparator(body[i - 1]);
    if (run >= 2 && atBoundary && isSeparator(body[i + run])) {
      source += "(?:.*[\\\\/])?";
      i += run + 1;
    } else {
      source += ".*";
      i += run;
    }
  }
  if (tail === "command") source += "(?: .*)?";
  if (tail === "folders") source += pattern.endsWith("/**") ? "(?:/.*)?" : "(?:[\\\\/].*)?";
  return new RegExp(`^${source}$`, "s");
}

const isSeparator = (c: string | undefined) => c === "/" || c === "\\";

/**
 * The optional tails: ` *` (the pattern also matches the text without it, so `git status *` matches
 * `git status`) and a final `/**` after a folder name (`src/**` matches `src` and all below it).
 */
function splitTail(pattern: string): { body: string; tail: "none" | "command" | "folders" } {
  if (pattern.length >= 2 && pattern.endsWith(" *") && pattern[pattern.length - 3] !== "*") return { body: pattern.slice(0, -2), tail: "command" };
  if (pattern.length > 3 && pattern.endsWith("**") && isSeparator(pattern[pattern.length - 3]) && pattern[pattern.length - 4] !== "*") {
    return { body: pattern.slice(0, -3), tail: "folders" };
  }
  return { body: pattern, tail: "none" };
}

function build(pattern: string): WildcardMatcher {
  const special = /[?\\]/.test(pattern) || /\*\*/.test(pattern);
  const stars = countStars(pattern);
  if (stars > 0 && stars === pattern.length) return make(pattern, "any", "", () => true);
  if (!special) {
    if (stars === 0) return make(pattern, "exact", pattern, (t) => t === pattern);
    if (stars === 1 && pattern.endsWith(" *")) {
      const bare = pattern.slice(0, -2);
      const spaced = `${bare} `;
      return make(pattern, "command", bare, (t) => t === bare || t.startsWith(spaced));
    }
    if (stars === 1 && pattern.endsWith("*")) {
      const prefix = pattern.slice(0, -1);
      return make(pattern, "prefix", prefix, (t) => t.startsWith(prefix));
    }
    if (stars === 1 && pattern.startsWith("*")) {
      const suffix = pattern.slice(1);
      return make(pattern, "suffix", suffix, (t) => t.endsWith(suffix));
    }
    const inner = pattern.slice(1, -1);
    if (stars === 2 && pattern.startsWith("*") && pattern.endsWith("*") && !inner.endsWith(" ")) {
      return make(pattern, "contains", inner, (t) => t.includes(inner));
    }
  }
  const { body, tail } = splitTail(pattern);
  const full = compileSegments(body);
  if (tail === "none") return make(pattern, "segments", "", (t) => matchSegments(full, t));
  // The tail is optional: the text matches with it (` *` / `/*`) or ends where the body does.
  const withTail = compileSegments(tail === "command" ? pattern : pattern.slice(0, -1));
  return make(pattern, "segments", "", (t) => matchSegments(full, t) || matchSegments(withTail, t));
}

function make(pattern: string, kind: WildcardKind, literal: string, test: (text: string) => boolean): WildcardMatcher {
  return Object.freeze({ pattern, kind, literal, test });
}

function countStars(pattern: string): number {
  let n = 0;
  for (let i = 0; i < pattern.length; i++) if (pattern.charCodeAt(i) === 42) n++;
  return n;
}
