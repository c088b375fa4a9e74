// trimmed-boundary: the search has stray whitespace or blank lines around it, or starts and ends in
// the middle of lines (a partial first or last line). The span then starts and ends where the
// search's first and last lines do, so the rest of those lines is kept.
import { type Candidate, type Matcher, occurrences } from "../candidate.js";

export const trimmedBoundaryMatcher: Matcher = {
  name: "trimmed-boundary",
  find: (ctx) => {
    const trimmed = ctx.search.text.trim();
    if (trimmed === "") return [];
    if (trimmed !== ctx.search.text) {
      const found = occurrences(ctx.view.text, ctx.search.adapt(trimmed)).map(([start, end]) => ({ start, end }));
      if (found.length > 0) return found;
    }
    const search = trimmed.split("\n").map((l) => l.trim());
    const m = search.length;
    if (m < 2) return [];
    const first = search[0]!;
    const last = search[m - 1]!;
    const { lines, starts } = ctx.view;
    const found: Candidate[] = [];
    outer: for (let i = 0; i + m <= lines.length; i++) {
      const head = lines[i]!.trimEnd();
      if (!head.endsWith(first)) continue;
      for (let k = 1; k < m - 1; k++) if (lines[i + k]!.trim() !== search[k]) continue outer;
      const tailLine = lines[i + m - 1]!;
      const tail = tailLine.trimStart();
      if (!tail.startsWith(last)) continue;
      const start = starts[i]! + head.length - first.length;
      const end = starts[i + m - 1]! + (tailLine.length - tail.length) + last.length;
      found.push({ start, end });
    }
    return found;
  },
};
