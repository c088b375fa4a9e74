// Line diff built on the `diff` package's Myers implementation, split first at anchors the way
// patience diff does: lines that occur exactly once on each side and in the same order. Myers costs
// O(N·D); on a large file with changes spread all over, D is large and Myers alone is slow. Cutting
// the file at unique lines leaves many tiny gaps, each diffed by Myers almost for free.
import { diffArrays } from "diff";
import { type EditRun, pushRun } from "./edit-script.js";

/** Gaps whose Myers edit distance would exceed this are treated as "all removed, all added". */
const MAX_GAP_EDIT = 2000;

/** Computes an edit script turning `a` into `b` (lines compared with ===). */
export function diffLineArrays(a: readonly string[], b: readonly string[]): EditRun[] {
  const ids = new Map<string, number>();
  const intern = (line: string): number => {
    let id = ids.get(line);
    if (id === undefined) {
      id = ids.size;
      ids.set(line, id);
    }
    return id;
  };
  const aIds = Int32Array.from(a, intern);
  const bIds = Int32Array.from(b, intern);
  const script: EditRun[] = [];
  diffRange(aIds, 0, aIds.length, bIds, 0, bIds.length, script);
  return script;
}

function diffRange(
  a: Int32Array, aLo: number, aHi: number,
  b: Int32Array, bLo: number, bHi: number,
  out: EditRun[],
): void {
  // Common prefix and suffix are kept as they are.
  let prefix = 0;
  while (aLo + prefix < aHi && bLo + prefix < bHi && a[aLo + prefix] === b[bLo + prefix]) prefix++;
  pushRun(out, "equal", prefix);
  aLo += prefix;
  bLo += prefix;
  let suffix = 0;
  while (aHi - suffix > aLo && bHi - suffix > bLo && a[aHi - 1 - suffix] === b[bHi - 1 - suffix]) suffix++;
  aHi -= suffix;
  bHi -= suffix;

  if (aLo === aHi || bLo === bHi) {
    pushRun(out, "delete", aHi - aLo);
    pushRun(out, "insert", bHi - bLo);
  } else {
    const anchors = uniqueAnchors(a, aLo, aHi, b, bLo, bHi);
    if (anchors.length === 0) myers(a, aLo, aHi, b, bLo, bHi, out);
    else {
      let ai = aLo;
      let bi = bLo;
      for (const [ax, bx] of anchors) {
        diffRange(a, ai, ax, b, bi, bx, out);
        pushRun(out, "equal", 1);
        ai = ax + 1;
        bi = bx + 1;
      }
      diffRange(a, ai, aHi, b, bi, bHi, out);
    }
  }
  pushRun(out, "equal", suffix);
}

/** Lines unique on both sides, as (aIndex, bIndex) pairs forming the longest increasing run in b. */
function uniqueAnchors(
  a: Int32Array, aLo: number, aHi: number,
  b: Int32Array, bLo: number, bHi: number,
): Array<[number, number]> {
  // Small ranges are cheaper to hand to Myers directly.
  if (aHi - aLo + (bHi - bLo) < 64) return [];
  const countA = new Map<number, number>();
  const posB = new Map<number, number>();
  for (let i = aLo; i < aHi; i++) countA.set(a[i]!, (countA.get(a[i]!) ?? 0) + 1);
  for (let j = bLo; j < bHi; j++) {
    const id = b[j]!;
    if (countA.get(id) !== 1) continue;
    posB.set(id, posB.has(id) ? -1 : j);
  }
  const pairs: Array<[number, number]> = [];
  for (let i = aLo; i < aHi; i++) {
    const j = posB.get(a[i]!);
    if (j !== undefined && j >= 0) pairs.push([i, j]);
  }
  return longestIncreasing(pairs);
}

/** Patience sorting: the longest subsequence of pairs whose b indexes increase. O(n log n). */
function longestIncreasing(pairs: Array<[number, number]>): Array<[number, number]> {
  if (pairs.length === 0) return pairs;
  const tails: number[] = [];
  const prev = new Int32Array(pairs.length);
  for (let k = 0; k < pairs.length; k++) {
    const bj = pairs[k]![1];
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (pairs[tails[mid]!]![1] < bj) lo = mid + 1;
      else hi = mid;
    }
    prev[k] = lo > 0 ? tails[lo - 1]! : -1;
    tails[lo] = k;
  }
  const result: Array<[number, number]> = [];
  for (let k = tails[tails.length - 1]!; k !== -1; k = prev[k]!) result.push(pairs[k]!);
  return result.reverse();
}

function myers(a: Int32Array, aLo: number, aHi: number, b: Int32Array, bLo: number, bHi: number, out: EditRun[]): void {
  const changes = diffArrays(Array.from(a.subarray(aLo, aHi)), Array.from(b.subarray(bLo, bHi)), {
    maxEditLength: MAX_GAP_EDIT,
  });
  if (!changes) {
    pushRun(out, "delete", aHi - aLo);
    pushRun(out, "insert", bHi - bLo);
    return;
  }
  // Within one change group the `diff` package may list insertions before deletions; unified diffs
  // show removals first, so each group between equal runs is re-ordered.
  let del = 0;
  let ins = 0;
  for (const c of changes) {
    if (c.added) ins += c.count;
    else if (c.removed) del += c.count;
    else {
      pushRun(out, "delete", del);
      pushRun(out, "insert", ins);
      del = ins = 0;
      pushRun(out, "equal", c.count);
    }
  }
  pushRun(out, "delete", del);
  pushRun(out, "insert", ins);
}
