import { LruCache } from "./lru-cache.js";
import type { Rule } from "./rule.js";
import { compileWildcard, type WildcardMatcher } from "./wildcard.js";

/**
 * Finding the deciding rule fast. A ruleset array seen for the second time gets an index (kept in a
 * WeakMap, so it lives as long as the array): rules grouped by literal permission name, and per
 * asked permission the candidate rules bucketed by the first literal character of their pattern
 * (or the last one, for `*.env`-style patterns). A lookup then tests only the few rules that can
 * match, newest first. Arrays seen once (e.g. a fresh `merge(...)` per call) are scanned linearly,
 * so throwaway arrays never pay for an index.
 *
 * Rulesets are treated as values: appending or removing rules is detected, but replacing a rule
 * object in the middle of an array after it was evaluated is not — build a new array instead.
 */

const INDEX_THRESHOLD = 16;
const PERMISSIONS_PER_RULESET = 256;
const NONE: readonly number[] = [];

interface PatternIndex {
  /** Rule indices, descending, keyed by the first character of a pattern with a literal start. */
  byFirst: Map<string, number[]>;
  /** Rule indices, descending, keyed by the last character of `*…x`-shaped patterns. */
  byLast: Map<string, number[]>;
  /** Rule indices, descending, of patterns that can start and end with anything. */
  open: number[];
}

class RulesetIndex {
  readonly length: number;
  readonly first: Rule | undefined;
  readonly last: Rule | undefined;
  readonly #matchers: WildcardMatcher[];
  readonly #literal = new Map<string, number[]>();
  readonly #globbed: number[] = [];
  readonly #perPermission = new LruCache<string, PatternIndex>(PERMISSIONS_PER_RULESET);

  constructor(readonly rules: readonly Rule[]) {
    this.length = rules.length;
    this.first = rules[0];
    this.last = rules[rules.length - 1];
    this.#matchers = rules.map((r) => compileWildcard(r.pattern));
    rules.forEach((rule, i) => {
      if (compileWildcard(rule.permission).kind === "exact") {
        const list = this.#literal.get(rule.permission);
        if (list) list.push(i);
        else this.#literal.set(rule.permission, [i]);
      } else this.#globbed.push(i);
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
    const a = index.byFirst.get(text.length > 0 ? text[0]! : "") ?? NONE;
    const b = text.length > 0 ? (index.byLast.get(text[text.length - 1]!) ?? NONE) : NONE;
    const c = index.open;
    let i = 0;
    let j = 0;
    let k = 0;
    // Merge three descending lists, testing the highest (latest) rule first.
    for (;;) {
      const x = i < a.length ? a[i]! : -1;
      const y = j < b.length ? b[j]! : -1;
      const z = k < c.length ? c[k]! : -1;
      let best: number;
      if (x >= y && x >= z) {
        best = x;
        i++;
      } else if (y >= z) {
        best = y;
        j++;
      } else {
        best = z;
        k++;
      }
      if (best < 0) return -1;
      if (this.#matchers[best]!.test(text)) return best;
    }
  }

  #build(permission: string): PatternIndex {
    const candidates = [...(this.#literal.get(permission) ?? NONE)];
    for (const i of this.#globbed) if (compileWildcard(this.rules[i]!.permission).test(permission)) candidates.push(i);
    candidates.sort((x, y) => y - x);
    const index: PatternIndex = { byFirst: new Map(), byLast: new Map(), open: [] };
    for (const i of candidates) {
      const pattern = this.rules[i]!.pattern;
      const head = pattern[0];
      const tail = pattern[pattern.length - 1];
      if (head === undefined) push(index.byFirst, "", i);
      else if (pattern === " *") index.open.push(i); // also matches "", whose first character is not " "
      else if (head !== "*" && head !== "?") push(index.byFirst, head, i);
      else if (tail !== "*" && tail !== "?") push(index.byLast, tail!, i);
      else index.open.push(i);
    }
    return index;
  }
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
