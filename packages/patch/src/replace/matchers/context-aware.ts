// context-aware: the first and last lines are context anchors and the block has the search's line
// count; most middle lines must match exactly and the others must still resemble theirs.
import { type Candidate, type Matcher, alignedPairs } from "../candidate.js";
import { collapseWhitespace } from "../../text/normalize.js";
import { sameSignature } from "../../text/signature.js";
import { measureSimilarity } from "../../text/similarity.js";
import { CONTEXT_MIN_AVERAGE, CONTEXT_MIN_EXACT_SHARE, CONTEXT_MIN_LINE } from "../thresholds.js";

export const contextAwareMatcher: Matcher = {
  name: "context-aware",
  find: (ctx) => {
    const search = ctx.search.lines.map(collapseWhitespace);
    const m = search.length;
    if (m < 3 || search[0] === "" || search[m - 1] === "") return [];
    const norm = ctx.linesAs(collapseWhitespace);
    const found: Candidate[] = [];
    for (let i = 0; i + m <= norm.length; i++) {
      if (norm[i] !== search[0] || norm[i + m - 1] !== search[m - 1]) continue;
      let exact = 0;
      let counted = 0;
      let sum = 0;
      let ok = true;
      let uncertain = false;
      for (let k = 1; k < m - 1 && ok; k++) {
        const a = search[k]!;
        const b = norm[i + k]!;
        if (a === "" && b === "") continue;
        counted++;
        if (a === b) {
          exact++;
          sum += 1;
          continue;
        }
        // A changed number, operator or negation is stale code, not a typo (see text/signature.ts).
        if (!sameSignature(a, b)) {
          ok = false;
          break;
        }
        const measured = measureSimilarity(a, b, CONTEXT_MIN_LINE, ctx.cells);
        // Unknown: counted as alike as the line may be, so the block is reported (and refused) as uncertain.
        if (measured === undefined) uncertain = true;
        const s = measured ?? 1;
        if (s < CONTEXT_MIN_LINE) ok = false;
        sum += s;
      }
      if (!ok || counted === 0) continue;
      if (exact / counted < CONTEXT_MIN_EXACT_SHARE || sum / counted < CONTEXT_MIN_AVERAGE) continue;
      found.push({ ...ctx.lineSpan(i, i + m - 1, alignedPairs(i, m)), ...(uncertain ? { uncertain: true } : {}) });
    }
    return found;
  },
};
