// Finds the region of a file that comes closest to a search that was not found, so the error can
// point a model at it ("closest: lines 40-52, similarity 0.83"). Candidate regions come from votes:
// every file line equal (after whitespace and punctuation folding) to a search line votes for the
// region that would align them; only the few best-voted regions are scored character by character.
import type { NearMiss } from "../errors.js";
import { collapseWhitespace, foldPunctuation } from "./normalize.js";
import { similarity } from "./similarity.js";

/** Below this similarity a region is not worth pointing at. */
export const NEAR_MISS_MIN_SIMILARITY = 0.5;
/** How many best-voted regions are scored. */
const SCORED_REGIONS = 5;
/** A search line repeated more often than this (braces, blank-ish lines) votes only for its first positions. */
const VOTES_PER_LINE = 8;
/** Longest excerpt quoted back. */
const EXCERPT_LINES = 30;

/** The region of `fileLines` most similar to `searchLines`, when one reaches {@link NEAR_MISS_MIN_SIMILARITY}. */
export function findNearMiss(fileLines: readonly string[], searchLines: readonly string[]): NearMiss | undefined {
  if (fileLines.length === 0 || searchLines.length === 0) return undefined;
  const norm = (s: string): string => collapseWhitespace(foldPunctuation(s));
  const search = searchLines.map(norm);
  const positions = new Map<string, number[]>();
  search.forEach((line, j) => {
    if (line === "") return;
    const list = positions.get(line) ?? [];
    if (list.length < VOTES_PER_LINE) list.push(j);
    positions.set(line, list);
  });
  const votes = new Map<number, number>();
  for (let i = 0; i < fileLines.length; i++) {
    const list = positions.get(norm(fileLines[i]!));
    if (!list) continue;
    for (const j of list) votes.set(i - j, (votes.get(i - j) ?? 0) + 1);
  }
  let offsets = [...votes.entries()].sort((x, y) => y[1] - x[1] || x[0] - y[0]).slice(0, SCORED_REGIONS).map((e) => e[0]);
  if (offsets.length === 0) offsets = closestLineOffsets(fileLines, search, norm);

  const searchText = search.join("\n");
  let best: NearMiss | undefined;
  for (const offset of offsets) {
    const start = Math.max(0, offset);
    const end = Math.min(fileLines.length, offset + searchLines.length);
    if (end <= start) continue;
    const region = fileLines.slice(start, end);
    const score = similarity(searchText, region.map(norm).join("\n"), NEAR_MISS_MIN_SIMILARITY);
    if (score >= NEAR_MISS_MIN_SIMILARITY && (!best || score > best.similarity)) {
      best = {
        startLine: start + 1,
        endLine: end,
        similarity: Math.round(score * 100) / 100,
        text: region.slice(0, EXCERPT_LINES).join("\n"),
      };
    }
  }
  return best;
}

/** When no line matches exactly: the file line most like the longest search line, aligned with it. */
function closestLineOffsets(fileLines: readonly string[], search: readonly string[], norm: (s: string) => string): number[] {
  let j = 0;
  for (let k = 1; k < search.length; k++) if (search[k]!.length > search[j]!.length) j = k;
  const probe = search[j]!;
  if (probe === "") return [];
  let bestScore = NEAR_MISS_MIN_SIMILARITY;
  let bestLine = -1;
  for (let i = 0; i < fileLines.length; i++) {
    const s = similarity(probe, norm(fileLines[i]!), bestScore);
    if (s > bestScore) {
      bestScore = s;
      bestLine = i;
    }
  }
  return bestLine === -1 ? [] : [bestLine - j];
}
