// Baseline for bench/patch.bench.ts: @lathe/patch's near-miss search as it was before issue 33,
// kept here verbatim in substance so the bench measures the bounded version against it in the same
// run. Its line similarity is a Levenshtein banded at the largest distance that could still pass —
// on one long line that band is half the line, so the cost is quadratic (≈10 s at 20,000 characters).
// Line folding is reduced to whitespace collapsing: the bench's inputs are ASCII.

/** The old banded Levenshtein (no common prefix/suffix strip, no cell budget). */
function boundedLevenshtein(a: string, b: string, limit: number): number {
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

function similarity(a: string, b: string, atLeast = 0): number {
  if (a === b) return 1;
  const longer = Math.max(a.length, b.length);
  if (longer === 0) return 1;
  const limit = Math.floor((1 - atLeast) * longer);
  const d = boundedLevenshtein(a, b, limit);
  if (d > limit) return 0;
  const s = 1 - d / longer;
  return s >= atLeast ? s : 0;
}

const collapse = (line: string): string => line.replace(/\s+/g, " ").trim();

/** The old findNearMiss: best-voted regions scored line for line, else the line closest to the longest search line. Returns the similarity found (0 when none reaches 0.5). */
export function quadraticNearMiss(fileLines: readonly string[], searchLines: readonly string[]): number {
  const search = searchLines.map(collapse);
  const positions = new Map<string, number[]>();
  search.forEach((line, j) => {
    if (line === "") return;
    const list = positions.get(line) ?? [];
    if (list.length < 8) list.push(j);
    positions.set(line, list);
  });
  const fileNorm = fileLines.map(collapse);
  const votes = new Map<number, number>();
  for (let i = 0; i < fileLines.length; i++) {
    for (const j of positions.get(fileNorm[i]!) ?? []) votes.set(i - j, (votes.get(i - j) ?? 0) + 1);
  }
  let offsets = [...votes.entries()].sort((x, y) => y[1] - x[1] || x[0] - y[0]).slice(0, 5).map((e) => e[0]);
  if (offsets.length === 0) offsets = closestLineOffsets(fileNorm, search);
  let best = 0;
  for (const offset of offsets) {
    const start = Math.max(0, offset);
    const end = Math.min(fileLines.length, offset + searchLines.length);
    if (end <= start) continue;
    const skipped = Math.max(0, -offset);
    let sum = 0;
    for (let k = 0; k < end - start; k++) {
      const s = search[k + skipped];
      if (s === undefined) break;
      const f = fileNorm[start + k]!;
      sum += s === f ? 1 : similarity(s, f, 0);
    }
    const score = sum / search.length;
    if (score >= 0.5 && score > best) best = score;
  }
  return best;
}

function closestLineOffsets(fileNorm: readonly string[], search: readonly string[]): number[] {
  let j = 0;
  for (let k = 1; k < search.length; k++) if (search[k]!.length > search[j]!.length) j = k;
  const probe = search[j]!;
  if (probe.length < 2) return [];
  const bucket = (t: string, i: number): number => ((t.charCodeAt(i) * 31 + t.charCodeAt(i + 1)) >>> 0) % 4096;
  const probeCounts = new Uint16Array(4096);
  for (let i = 0; i + 1 < probe.length; i++) probeCounts[bucket(probe, i)]!++;
  const scratch = new Uint16Array(4096);
  const ranked: Array<[number, number]> = [];
  for (let i = 0; i < fileNorm.length; i++) {
    const line = fileNorm[i]!;
    if (line.length < 2) continue;
    let shared = 0;
    for (let k = 0; k + 1 < line.length; k++) {
      const b = bucket(line, k);
      if (scratch[b]! < probeCounts[b]!) shared++;
      scratch[b]!++;
    }
    for (let k = 0; k + 1 < line.length; k++) scratch[bucket(line, k)] = 0;
    const score = (2 * shared) / (probe.length - 1 + line.length - 1);
    if (ranked.length < 8 || score > ranked[ranked.length - 1]![0]) {
      ranked.push([score, i]);
      ranked.sort((a, b) => b[0] - a[0]);
      if (ranked.length > 8) ranked.pop();
    }
  }
  let bestScore = 0.5;
  let bestLine = -1;
  for (const [, i] of ranked) {
    const s = similarity(probe, fileNorm[i]!, bestScore);
    if (s > bestScore) {
      bestScore = s;
      bestLine = i;
    }
  }
  return bestLine === -1 ? [] : [bestLine - j];
}
