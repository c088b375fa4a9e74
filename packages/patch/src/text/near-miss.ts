// Finds the region of a file that comes closest to a search that was not found, so the error can
// point a model at it ("closest: lines 40-52, similarity 0.83"). Candidate regions come from votes:
// every file line equal (after whitespace and punctuation folding) to a search line votes for the
// region that would align them; only the few best-voted regions are scored character by character.
// The scoring of one search draws from one budget of Levenshtein cells; a comparison it cannot pay
// for (long lines that differ much) is estimated from shared character pairs instead, in linear time,
// so a stale edit of a 100,000-character line is refused in milliseconds rather than seconds. The
// near miss only points the model at text; no edit is decided by it.
import type { NearMiss } from "../errors.js";
import { showInvisible, stripInvisible } from "./invisible.js";
import { collapseWhitespace, foldPunctuation } from "./normalize.js";
import { type CellBudget, PAIR_BUCKETS, cellBudget, differingMiddles, measureDistance, pairBucket, pairCounts, sharedPairs } from "./similarity.js";

/** Below this similarity a region is not worth pointing at. */
export const NEAR_MISS_MIN_SIMILARITY = 0.5;
/** How many best-voted regions are scored. */
const SCORED_REGIONS = 5;
/** A search line repeated more often than this (braces, blank-ish lines) votes only for its first positions. */
const VOTES_PER_LINE = 8;
/** Levenshtein cells one near-miss search may fill in all (≈ 20 ms); past them comparisons are estimated. */
const NEAR_MISS_CELLS = 6_000_000;
/** Longest excerpt quoted back. */
const EXCERPT_LINES = 30;

/** A line in the form near misses compare: zero-width characters dropped, punctuation folded, whitespace collapsed. */
export function nearMissForm(line: string): string {
  return collapseWhitespace(foldPunctuation(stripInvisible(line)));
}

/**
 * The region of `fileLines` most similar to `searchLines`, when one reaches {@link NEAR_MISS_MIN_SIMILARITY}.
 * `fileForms`: the file's lines already in {@link nearMissForm}, when the caller has them.
 */
export function findNearMiss(fileLines: readonly string[], searchLines: readonly string[], fileForms?: readonly string[]): NearMiss | undefined {
  if (fileLines.length === 0 || searchLines.length === 0) return undefined;
  const norm = nearMissForm;
  const search = searchLines.map(norm);
  const positions = new Map<string, number[]>();
  search.forEach((line, j) => {
    if (line === "") return;
    const list = positions.get(line) ?? [];
    if (list.length < VOTES_PER_LINE) list.push(j);
    positions.set(line, list);
  });
  const fileNorm = fileForms ?? fileLines.map(norm);
  const votes = new Map<number, number>();
  for (let i = 0; i < fileLines.length; i++) {
    const list = positions.get(fileNorm[i]!);
    if (!list) continue;
    for (const j of list) votes.set(i - j, (votes.get(i - j) ?? 0) + 1);
  }
  const budget = cellBudget(NEAR_MISS_CELLS);
  let offsets = [...votes.entries()].sort((x, y) => y[1] - x[1] || x[0] - y[0]).slice(0, SCORED_REGIONS).map((e) => e[0]);
  if (offsets.length === 0) offsets = closestLineOffsets(fileNorm, search, budget);

  let best: NearMiss | undefined;
  for (const offset of offsets) {
    const start = Math.max(0, offset);
    const end = Math.min(fileLines.length, offset + searchLines.length);
    if (end <= start) continue;
    const region = fileLines.slice(start, end);
    const score = regionSimilarity(search, offset, fileNorm.slice(start, end), budget);
    if (score >= NEAR_MISS_MIN_SIMILARITY && (!best || score > best.similarity)) {
      best = {
        startLine: start + 1,
        endLine: end,
        // Rounded down, so a region that differs at all never shows as 1.
        similarity: Math.floor(score * 100) / 100,
        // Zero-width characters spelt out: the model cannot see them, so it could not copy its way out.
        text: showInvisible(region.slice(0, EXCERPT_LINES).join("\n")),
      };
    }
  }
  return best;
}

/**
 * How alike a region is to the search: the mean of line-for-line similarities (lines past either end
 * count as 0). Line by line keeps the cost linear in the region's size — one character-level
 * comparison of two 50-line texts costs as much as the whole matcher chain.
 */
function regionSimilarity(search: readonly string[], offset: number, region: readonly string[], budget: CellBudget): number {
  const skipped = Math.max(0, -offset);
  let sum = 0;
  for (let k = 0; k < region.length; k++) {
    const searchLine = search[k + skipped];
    if (searchLine === undefined) break;
    const fileLine = region[k]!;
    sum += searchLine === fileLine ? 1 : nearMissSimilarity(searchLine, fileLine, 0, budget);
  }
  return sum / search.length;
}

/** How many lines, picked cheaply by shared character pairs, are compared exactly with the probe line. */
const PROBE_CANDIDATES = 8;

/**
 * When no line matches exactly: the file line most like the longest search line, aligned with it.
 * Lines are first ranked by the character pairs they share with the probe (linear time, no
 * allocation per line), and only the best few are compared character by character.
 */
function closestLineOffsets(fileNorm: readonly string[], search: readonly string[], budget: CellBudget): number[] {
  let j = 0;
  for (let k = 1; k < search.length; k++) if (search[k]!.length > search[j]!.length) j = k;
  const probe = search[j]!;
  if (probe.length < 2) return [];
  const probeCounts = pairCounts(probe);
  const scratch = new Uint32Array(PAIR_BUCKETS);
  const ranked: Array<[number, number]> = [];
  for (let i = 0; i < fileNorm.length; i++) {
    const line = fileNorm[i]!;
    if (line.length < 2) continue;
    let shared = 0;
    for (let k = 0; k + 1 < line.length; k++) {
      const b = pairBucket(line, k);
      if (scratch[b]! < probeCounts[b]!) shared++;
      scratch[b]!++;
    }
    for (let k = 0; k + 1 < line.length; k++) scratch[pairBucket(line, k)] = 0;
    const score = (2 * shared) / (probe.length - 1 + line.length - 1);
    if (ranked.length < PROBE_CANDIDATES || score > ranked[ranked.length - 1]![0]) {
      ranked.push([score, i]);
      ranked.sort((a, b) => b[0] - a[0]);
      if (ranked.length > PROBE_CANDIDATES) ranked.pop();
    }
  }
  let bestScore = NEAR_MISS_MIN_SIMILARITY;
  let bestLine = -1;
  for (const [, i] of ranked) {
    const s = nearMissSimilarity(probe, fileNorm[i]!, bestScore, budget);
    if (s > bestScore) {
      bestScore = s;
      bestLine = i;
    }
  }
  return bestLine === -1 ? [] : [bestLine - j];
}

/**
 * Similarity of two lines for the near miss (0 below `atLeast`): exact while the budget pays for it,
 * else estimated — the distance taken as the share of character pairs the differing middles do not
 * share (Dice), never less than the distance the budget already ruled out.
 */
function nearMissSimilarity(a: string, b: string, atLeast: number, budget: CellBudget): number {
  if (a === b) return 1;
  const longer = Math.max(a.length, b.length);
  const limit = Math.floor((1 - atLeast) * longer);
  const measured = measureDistance(a, b, limit, budget);
  let distance: number;
  if ("undetermined" in measured) {
    const [x, y] = differingMiddles(a, b);
    const shared = sharedPairs(x, y);
    const pairs = Math.max(x.length - 1, 0) + Math.max(y.length - 1, 0);
    const dice = pairs === 0 ? 0 : (2 * shared) / pairs;
    distance = Math.max(measured.above + 1, Math.round((1 - dice) * Math.max(x.length, y.length)));
  } else distance = measured.distance;
  const s = 1 - distance / longer;
  return s >= atLeast && distance <= limit ? s : 0;
}
