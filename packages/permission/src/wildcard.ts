import { LruCache } from "./lru-cache.js";

/**
 * How a compiled wildcard tests text. The common shapes (`*`, literal, `prefix*`, `cmd *`,
 * `*suffix`, `*infix*`) get string-method fast paths; everything else is one regular expression.
 */
export type WildcardKind = "any" | "exact" | "prefix" | "command" | "suffix" | "contains" | "regex";

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
 * ` *` also matches the text without that tail, so `git status *` matches `git status`.
 * Compiled matchers are cached in a bounded module-level LRU.
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

/** The reference translation to a regular expression; the fast paths must agree with it. */
export function wildcardToRegExp(pattern: string): RegExp {
  let source = pattern
    .replace(/[.+^${}()|[\]\\]/g, "\\$&")
    .replace(/\*/g, ".*")
    .replace(/\?/g, ".");
  if (source.endsWith(" .*")) source = `${source.slice(0, -3)}( .*)?`;
  return new RegExp(`^${source}$`, "s");
}

function build(pattern: string): WildcardMatcher {
  const hasQuestion = pattern.includes("?");
  const stars = countStars(pattern);
  if (!hasQuestion) {
    if (stars === 0) return make(pattern, "exact", pattern, (t) => t === pattern);
    if (stars === pattern.length) return make(pattern, "any", "", () => true);
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
  const regex = wildcardToRegExp(pattern);
  return make(pattern, "regex", "", (t) => regex.test(t));
}

function make(pattern: string, kind: WildcardKind, literal: string, test: (text: string) => boolean): WildcardMatcher {
  return Object.freeze({ pattern, kind, literal, test });
}

function countStars(pattern: string): number {
  let n = 0;
  for (let i = 0; i < pattern.length; i++) if (pattern.charCodeAt(i) === 42) n++;
  return n;
}
