// String similarity with bounded cost. OpenCode scores fuzzy blocks with an unbounded Levenshtein,
// which is quadratic; here every distance is computed inside a band of the largest distance that
// could still pass, so a hopeless comparison stops early.

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

/**
 * Similarity of two strings in [0, 1]: 1 − distance ÷ longer length. Returns 0 when the similarity is
 * below `atLeast` (the cut-off lets the distance computation stop early).
 */
export function similarity(a: string, b: string, atLeast = 0): number {
  if (a === b) return 1;
  const longer = Math.max(a.length, b.length);
  if (longer === 0) return 1;
  const limit = Math.floor((1 - atLeast) * longer);
  const d = boundedLevenshtein(a, b, limit);
  if (d > limit) return 0;
  const s = 1 - d / longer;
  return s >= atLeast ? s : 0;
}
