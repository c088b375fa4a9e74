// The refusal when no reading of the search matched: where the closest text is (zero-width
// characters spelt out, so the model sees why its copy differs), and what to fix.
import { ReplaceError } from "../errors.js";
import { findNearMiss, nearMissForm } from "../text/near-miss.js";
import type { MatchContext } from "./candidate.js";
import { prefixedLineCount } from "./line-prefix.js";
import type { SearchVariant } from "./search-variants.js";

/** The `not_found` error for a search none of whose `variants` matched. */
export function notFound(ctx: MatchContext, variants: readonly SearchVariant[]): ReplaceError {
  const { view } = ctx;
  // The near miss of the reading the model most likely meant: without line numbers when it had them.
  const meant = variants.find((v) => v.kind === "line-numbers") ?? variants[0]!;
  const lines = meant.search.replace(/\n$/, "").split("\n");
  const nearMiss = findNearMiss(view.lines, lines, ctx.linesFolded(nearMissFold));
  const asWritten = variants[0]!.search.replace(/\n$/, "").split("\n");
  const prefixed = prefixedLineCount(asWritten);
  let hint = "";
  if (prefixed > 0 && !variants.some((v) => v.kind === "line-numbers")) {
    const why = prefixed < asWritten.length ? `${prefixed} of the ${asWritten.length} lines of oldString start with a line number and the others do not` : "The lines of oldString start with line numbers that are not consecutive";
    hint += ` ${why}: copy the text without the line-number prefixes of the file view.`;
  }
  if (nearMiss) {
    const invisible = /\\u(200[b-d]|2060|feff)/.test(nearMiss.text) ? " (zero-width characters shown as \\uXXXX; they need not be typed)" : "";
    hint += ` The closest text is at lines ${nearMiss.startLine}-${nearMiss.endLine} (similarity ${nearMiss.similarity})${invisible}:\n${nearMiss.text}\nCopy oldString exactly from the file (re-read it if it may have changed).`;
    return new ReplaceError(`Could not find oldString in the file.${hint}`, { code: "not_found", nearMiss });
  }
  hint += " Re-read the file and copy oldString exactly, including whitespace and indentation.";
  return new ReplaceError(`Could not find oldString in the file.${hint}`, { code: "not_found" });
}

// nearMissForm with the whitespace collapse left to linesFolded (a fixed function: it keys the cache).
const nearMissFold = (line: string): string => nearMissForm(line);
