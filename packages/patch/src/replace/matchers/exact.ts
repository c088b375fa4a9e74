// exact: the search text, byte for byte (line endings adapted to the file's).
import { type Matcher, occurrences } from "../candidate.js";

export const exactMatcher: Matcher = {
  name: "exact",
  find: (ctx) => occurrences(ctx.view.text, ctx.search.adapt(ctx.search.text)).map(([start, end]) => ({ start, end })),
};
