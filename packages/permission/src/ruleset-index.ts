import { LruCache } from "./lru-cache.js";
import type { Rule } from "./rule.js";
import { compileWildcard, type WildcardMatcher } from "./wildcard.js";

/**
 * Finding the deciding rule fast. A ruleset array seen for the second time gets an index (kept in a
 * WeakMap, so it lives as long as the array): rules grouped by literal permission name, and, per
 * asked permission, the candidate rules keyed by the literal text their pattern must start with (or,
 * for `*.env`-style patterns, end with). A lookup lists the keys the asked text could hit — one per
 * distinct key length — and tests only those rules, newest first. Arrays seen once (e.g. a fresh
 * `merge(...)` per call) are scanned linearly, so throwaway arrays never pay for an index.
 *
 * Rulesets are treated as values: appending or removing rules is detected, but replacing a rule
 * object in the middle of an array after it was evaluated is not — build a new array instead.
 */

const INDEX_THRESHOLD = 16;
const PERMISSIONS_PER_RULESET = 2048;

/** Rule indices (descending) keyed by a literal affix, with the distinct key lengths. */
interface AffixIndex {
  lists: Map<string, number[]>;
  lengths: number[];
}

interface PatternIndex {
  /** Patterns starting with literal text, keyed by that text (up to the first wildcard). */
  prefix: AffixIndex;
  /** Patterns starting with a wildcard and ending with literal text, keyed by that text. */
  suffix: AffixIndex;
  /** Patterns that start and end with a wildcard (`*`, `*foo*`), descending. */
  open: number[];
}

class RulesetIndex {
  readonly length: number;
  readonly first: Rule | undefined;
  readonly last: Rule | undefined;
  readonly #patterns: WildcardMatcher[];
  readonly #literal = new Map<string, number[]>();
  readonly #globbed: { index: number; matcher: WildcardMatcher }[] = [];
  readonly #perPermission = new LruCache<string, PatternIndex>(PERMISSIONS_PER_RULESET);

  constructor(readonly rules: readonly Rule[]) {
    this.length = rules.length;
    this.first = rules[0];
    this.last = rules[rules.length - 1];
    this.#patterns = rules.map((r) => compileWildcard(r.pattern));
    rules.forEach((rule, index) => {
      const matcher = compileWildcard(rule.permission);
      if (matcher.kind !== "exact") this.#globbed.push({ index, matcher });
      else {
        const list = this.#literal.get(rule.permission);
        if (list) list.push(index);
        else this.#literal.set(rule.permission, [index]);
      }
    });
  }

  isCurrent(rules: readonly Rule[]): boolean {
    return rules.length === this.length && rules[0] === this.first && rules[rules.length - 1] === this.last;
  }

  lastMatch(permission: string, text: string): number {
    let index = this.#perPermission.get(permission);
    if (!index) {
      index = this.#build(permission);
      this.#perPermission.set(permission, index);
    }
    let best = this.#scan(index.open, text, -1);
    const { prefix, suffix } = index;
    for (const n of prefix.lengths) {
      if (n > text.length) break;
      const list = prefix.lists.get(text.slice(0, n));
      if (list) best = this.#scan(list, text, best);
    }
    for (const n of suffix.lengths) {
      if (n > text.length) break;
      const list = suffix.lists.get(text.slice(text.length - n));
      if (list) best = this.#scan(list, text, best);
    }
    return best;
  }

  /** The first (highest) index in a descending list above `best` whose pattern matches, else `best`. */
  #scan(list: readonly number[], text: string, best: number): number {
    for (const i of list) {
      if (i <= best) return best;
      if (this.#patterns[i]!.test(text)) return i;
    }
    return best;
  }

  #build(permission: string): PatternIndex {
    const candidates = [...(this.#literal.get(permission) ?? [])];
    for (const { index, matcher } of this.#globbed) if (matcher.test(permission)) candidates.push(index);
    candidates.sort((x, y) => y - x);
    const prefix = new Map<string, number[]>();
    const suffix = new Map<string, number[]>();
    const open: number[] = [];
    for (const i of candidates) {
      const pattern = this.rules[i]!.pattern;
      const head = literalHead(pattern);
      if (head !== undefined) push(prefix, head, i);
      else {
        const tail = literalTail(pattern);
        if (tail !== undefined) push(suffix, tail, i);
        else open.push(i);
      }
    }
    return { prefix: affixIndex(prefix), suffix: affixIndex(suffix), open };
  }
}

/**
 * The literal text every match starts with, when the pattern starts with literal text. A trailing
 * ` *` also matches without its space, so `git status *` yields `git status`.
 */
function literalHead(pattern: string): string | undefined {
  let end = 0;
  while (end < pattern.length && !isWild(pattern[end]!)) end++;
  if (end === pattern.length) return pattern; // no wildcard at all
  if (end === pattern.length - 1 && pattern.endsWith(" *")) end--; // the optional " *" tail
  if (end === pattern.length - 2 && pattern.endsWith("/**")) end--; // the optional "/**" tail
  return end > 0 ? pattern.slice(0, end) : undefined;
}

/** The literal text every match ends with, when the pattern ends with literal text. */
function literalTail(pattern: string): string | undefined {
  let start = pattern.length;
  while (start > 0 && !isWild(pattern[start - 1]!)) start--;
  return start < pattern.length ? pattern.slice(start) : undefined;
}

/** Characters that do not match only themselves: `*`, `?`, and `\` (which also matches `/`). */
function isWild(c: string): boolean {
  return c === "*" || c === "?" || c === "\\";
}

function affixIndex(lists: Map<string, number[]>): AffixIndex {
  const lengths = [...new Set([...lists.keys()].map((k) => k.length))].sort((a, b) => a - b);
  return { lists, lengths };
}

function push(map: Map<string, number[]>, key: string, value: number): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** Per array: the number of sightings so far, or the index once built. */
const seen = new WeakMap<readonly Rule[], RulesetIndex | number>();

/** The position of the last rule in `rules` matching both `permission` and `text`, or -1. */
export function lastMatchingRule(rules: readonly Rule[], permission: string, text: string): number {
  if (rules.length < INDEX_THRESHOLD) return linearScan(rules, permission, text);
  const entry = seen.get(rules);
  if (entry instanceof RulesetIndex && entry.isCurrent(rules)) return entry.lastMatch(permission, text);
  if (entry === undefined) {
    seen.set(rules, 1);
    return linearScan(rules, permission, text);
  }
  const index = new RulesetIndex(rules);
  seen.set(rules, index);
  return index.lastMatch(permission, text);
}

function linearScan(rules: readonly Rule[], permission: string, text: string): number {
  for (let i = rules.length - 1; i >= 0; i--) {
    const rule = rules[i]!;
    if (compileWildcard(rule.permission).test(permission) && compileWildcard(rule.pattern).test(text)) return i;
  }
  return -1;
}
