// String similarity with bounded cost. OpenCode scores fuzzy blocks with an unbounded Levenshtein,
// which is quadratic; here every distance is computed inside a band of the largest distance that
// could still pass, so a hopeless comparison stops early. Two more bounds keep long lines cheap: the
// common prefix and suffix are dropped first (they never change the distance), the band starts narrow
// and widens only while the distance may lie past it (cost grows with the distance, not the limit),
// and a comparison draws its cells from a budget — when the budget cannot pay for the band the
// distance is left undetermined instead of computed quadratically (a 100,000-character line with a
// limit of half its length would fill 10⁹ cells, ≈ 10 s).

/** Cells one comparison may fill unless its caller gives another budget (≈ 5 ms of CPU). */
export const COMPARISON_CELLS = 2_000_000;

/** Cells left for the comparisons of one task (one matcher chain, one near-miss search); shared and spent. */
export interface CellBudget {
  left: number;
}

/** A fresh budget of `cells`. */
export function cellBudget(cells: number): CellBudget {
  return { left: cells };
}

/**
 * A band this cheap is not charged to the budget: short lines cost what they always did (linear in
 * the file), and the budget only stops the quadratic cost of long ones — so many short comparisons
 * (625 near-identical blocks) never exhaust it and turn a clear verdict into an uncertain one.
 */
const FREE_CELLS = 1 << 16;

/** The narrowest band tried first: most near-identical lines differ by less. */
const FIRST_BAND = 32;

/**
 * Levenshtein distance between `a` and `b`, or `limit + 1` as soon as it is known to exceed `limit`.
 * Cost O(min(|a|,|b|) · limit).
 */
export function boundedLevenshtein(a: string, b: string, limit: number): number {
  if (a === b) return 0;
  if (a.length > b.length) [a, b] = [b, a];
  const n = a.length;
  const m = b.length;
  if (m - n > limit) return limit + 1;
  if (n === 0) return m;
  const big = limit + 1;
  let prev = new Uint32Array(n + 1);
  let cur = new Uint32Array(n + 1);
  for (let i = 0; i <= n; i++) prev[i] = i;
  for (let j = 1; j <= m; j++) {
    const lo = Math.max(1, j - limit);
    const hi = Math.min(n, j + limit);
    cur[0] = j;
    if (lo > 1) cur[lo - 1] = big;
    let rowMin = lo === 1 ? j : big;
    const bj = b.charCodeAt(j - 1);
    for (let i = lo; i <= hi; i++) {
      const cost = a.charCodeAt(i - 1) === bj ? 0 : 1;
      const up = i <= j - 1 + limit ? prev[i]! : big;
      let v = prev[i - 1]! + cost;
      const del = up + 1;
      if (del < v) v = del;
      const ins = cur[i - 1]! + 1;
      if (ins < v) v = ins;
      cur[i] = v;
      if (v < rowMin) rowMin = v;
    }
    if (hi < n) cur[hi + 1] = big;
    if (rowMin > limit) return big;
    [prev, cur] = [cur, prev];
  }
  const d = prev[n]!;
  return d > limit ? big : d;
}

/** The distance (`limit + 1` when past `limit`), or `undetermined` with what is known: the distance exceeds `above`. */
export type Measured = { distance: number } | { undetermined: true; above: number };

/** `a` and `b` without their common prefix and suffix (which never change the edit distance). */
export function differingMiddles(a: string, b: string): [string, string] {
  const max = Math.min(a.length, b.length);
  let p = 0;
  while (p < max && a.charCodeAt(p) === b.charCodeAt(p)) p++;
  let s = 0;
  while (s < max - p && a.charCodeAt(a.length - 1 - s) === b.charCodeAt(b.length - 1 - s)) s++;
  return [a.slice(p, a.length - s), b.slice(p, b.length - s)];
}

/**
 * Levenshtein distance capped at `limit` as {@link boundedLevenshtein}, paid from `budget`: the band
 * starts at {@link FIRST_BAND} and widens fourfold while the distance may lie past it; a band the
 * budget cannot pay for leaves the distance undetermined.
 */
export function measureDistance(a: string, b: string, limit: number, budget: CellBudget = cellBudget(COMPARISON_CELLS)): Measured {
  if (a === b) return { distance: 0 };
  const [x, y] = differingMiddles(a, b);
  const gap = Math.abs(x.length - y.length);
  if (gap > limit) return { distance: limit + 1 };
  const longer = Math.max(x.length, y.length);
  if (x.length === 0 || y.length === 0) return { distance: longer };
  let band = Math.min(limit, Math.max(gap, FIRST_BAND));
  let above = gap - 1;
  for (;;) {
    const cells = longer * (2 * band + 1);
    if (cells > FREE_CELLS && cells > budget.left) {
      // Too costly to compute: the pairs of characters the two do not share may still rule it out.
      const floor = pairDistanceFloor(x, y);
      if (floor > limit) return { distance: limit + 1 };
      return { undetermined: true, above: Math.max(above, floor - 1, 0) };
    }
    if (cells > FREE_CELLS) budget.left -= cells;
    const d = boundedLevenshtein(x, y, band);
    if (d <= band) return { distance: d };
    if (band >= limit) return { distance: limit + 1 };
    above = band;
    band = Math.min(limit, band * 4);
  }
}

/**
 * Similarity of two strings in [0, 1]: 1 − distance ÷ longer length, or `undefined` when the budget
 * cannot tell whether it reaches `atLeast`. Below `atLeast` it is 0 (the cut-off lets the distance
 * computation stop early).
 */
export function measureSimilarity(a: string, b: string, atLeast = 0, budget?: CellBudget): number | undefined {
  if (a === b) return 1;
  const longer = Math.max(a.length, b.length);
  if (longer === 0) return 1;
  const limit = Math.floor((1 - atLeast) * longer);
  const measured = measureDistance(a, b, limit, budget);
  if ("undetermined" in measured) return undefined;
  if (measured.distance > limit) return 0;
  const s = 1 - measured.distance / longer;
  return s >= atLeast ? s : 0;
}

/**
 * Similarity as {@link measureSimilarity}, with 0 where it is undetermined: for callers to which a
 * comparison too long to pay for counts as unlike (never where that could hide a look-alike).
 */
export function similarity(a: string, b: string, atLeast = 0): number {
  return measureSimilarity(a, b, atLeast) ?? 0;
}

/** Character pairs are counted in this many hashed buckets (collisions only blur counts downwards). */
export const PAIR_BUCKETS = 4096;

/** The bucket of the character pair at `i`. */
export function pairBucket(text: string, i: number): number {
  return ((text.charCodeAt(i) * 31 + text.charCodeAt(i + 1)) >>> 0) % PAIR_BUCKETS;
}

/** How often each (hashed) character pair occurs in `text`. */
export function pairCounts(text: string): Uint32Array {
  const counts = new Uint32Array(PAIR_BUCKETS);
  for (let i = 0; i + 1 < text.length; i++) counts[pairBucket(text, i)]!++;
  return counts;
}

/** How many character pairs `x` and `y` share (as multisets; hashing can only overcount). */
export function sharedPairs(x: string, y: string): number {
  const xs = pairCounts(x);
  const ys = pairCounts(y);
  let shared = 0;
  for (let k = 0; k < PAIR_BUCKETS; k++) shared += Math.min(xs[k]!, ys[k]!);
  return shared;
}

/**
 * A lower bound of the edit distance in linear time (the q-gram lemma): one edit removes at most two
 * of a string's character pairs, so a string with p pairs the other lacks is at least p ÷ 2 edits away.
 */
export function pairDistanceFloor(x: string, y: string): number {
  const shared = sharedPairs(x, y);
  const missing = Math.max(x.length - 1, y.length - 1, 0) - shared;
  return Math.max(Math.ceil(missing / 2), Math.abs(x.length - y.length));
}
