// block-anchored: the first and last lines of the search anchor a block; the lines between may
// carry small differences (a typo in a name) but must resemble the search line for line, with the
// same numbers, operators and punctuation (see text/signature.ts).
// Blank lines are left out of the comparison, so a missing or extra blank line does not matter.
import { type Candidate, type Matcher } from "../candidate.js";
import { collapseWhitespace } from "../../text/normalize.js";
import { sameSignature } from "../../text/signature.js";
import { type CellBudget, measureSimilarity } from "../../text/similarity.js";
import { BLOCK_MAX_BLANK_DRIFT, BLOCK_MIN_AVERAGE, BLOCK_MIN_LINE } from "../thresholds.js";

export const blockAnchoredMatcher: Matcher = {
  name: "block-anchored",
  find: (ctx) => {
    const search = ctx.search.lines;
    const m = search.length;
    if (m < 3) return [];
    const first = search[0]!.trim();
    const last = search[m - 1]!.trim();
    if (first === "" || last === "") return [];
    // Middle search lines that are not blank, with their index in the search.
    const middle: Array<[number, string]> = [];
    for (let k = 1; k < m - 1; k++) {
      const norm = collapseWhitespace(search[k]!);
      if (norm !== "") middle.push([k, norm]);
    }
    if (middle.length === 0) return [];
    const lines = ctx.view.lines;
    const norm = ctx.linesAs(collapseWhitespace);
    const found: Candidate[] = [];
    for (let i = 0; i < lines.length; i++) {
      if (norm[i] !== first && lines[i]!.trim() !== first) continue;
      // Collect as many non-blank lines as the search's middle has, then expect the last anchor.
      const picked: number[] = [];
      let j = i + 1;
      for (; j < lines.length && picked.length < middle.length; j++) if (norm[j] !== "") picked.push(j);
      while (j < lines.length && norm[j] === "") j++;
      if (picked.length < middle.length || j >= lines.length || lines[j]!.trim() !== last) continue;
      if (Math.abs(j - i + 1 - m) > BLOCK_MAX_BLANK_DRIFT) continue;
      const verdict = resembles(middle, picked, norm, ctx.cells);
      if (verdict === false) continue;
      const pairs: Array<[number, number]> = [[0, i], [m - 1, j]];
      middle.forEach(([k], x) => pairs.push([k, picked[x]!]));
      found.push({ ...ctx.lineSpan(i, j, pairs), ...(verdict === "uncertain" ? { uncertain: true } : {}) });
    }
    return found;
  },
};

/**
 * Line-for-line similarity with an early exit once the average can no longer be reached;
 * `uncertain` when a line too long to compare within the budget could still let the block pass.
 */
function resembles(middle: Array<[number, string]>, picked: number[], norm: readonly string[], cells: CellBudget): boolean | "uncertain" {
  const needed = BLOCK_MIN_AVERAGE * middle.length;
  let sum = 0;
  let uncertain = false;
  for (let x = 0; x < middle.length; x++) {
    const [searchLine, fileLine] = [middle[x]![1], norm[picked[x]!]!];
    // A changed number, operator or negation is stale code, not a typo: never fuzzy-matched.
    if (!sameSignature(searchLine, fileLine)) return false;
    const measured = measureSimilarity(searchLine, fileLine, BLOCK_MIN_LINE, cells);
    // Unknown: counted as alike as the line may be, so the block is reported (and refused) as uncertain.
    if (measured === undefined) uncertain = true;
    const s = measured ?? 1;
    if (s < BLOCK_MIN_LINE) return false;
    sum += s;
    if (sum + (middle.length - x - 1) < needed) return false;
  }
  if (sum < needed) return false;
  return uncertain ? "uncertain" : true;
}
