// escape-normalised: the model escaped its search one level too many (`\n`, `\t`, `\"` written out).
import type { Matcher } from "../candidate.js";
import { occurrences } from "../candidate.js";
import { unescapeText } from "../../text/normalize.js";
import { matchingWindows } from "./line-windows.js";

export const escapeNormalisedMatcher: Matcher = {
  name: "escape-normalised",
  find: (ctx) => {
    const unescaped = unescapeText(ctx.search.text);
    if (unescaped === ctx.search.text) return [];
    const exact = occurrences(ctx.view.text, ctx.search.adapt(unescaped)).map(([start, end]) => ({ start, end }));
    if (exact.length > 0) return exact;
    const lines = unescaped.replace(/\n$/, "").split("\n");
    return matchingWindows(ctx, (l) => l.trim(), lines);
  },
};
