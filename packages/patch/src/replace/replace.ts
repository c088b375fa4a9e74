// replace(): the fuzzy find/replace behind the `edit` tool. Matchers are tried from strict to loose;
// the first that finds anything decides: one place is replaced, several are refused with their lines
// (a looser matcher never gets to single one of them out). The search is read as written, then
// without copied line-number prefixes, then unescaped (search-variants.ts). The replacement is
// written in the file's terms: kept lines as the file has them, new lines in its indentation and
// characters (transcribe.ts).
import { ReplaceError } from "../errors.js";
import { BOM, dominantEol, stripBom } from "../text/lines.js";
import { onCharacterBoundaries } from "./boundaries.js";
import { type Candidate, MatchContext, type Matcher, type MatcherName, type Search, alignedPairs } from "./candidate.js";
import { similarity } from "../text/similarity.js";
import { refuseElision } from "./elision.js";
import { detectPrefix, describePrefix, fileUsesPrefix, firstPrefixNumber, stripPrefix } from "./line-prefix.js";
import { MATCHERS } from "./matchers/index.js";
import { indentationFlexibleMatcher, lineTrimmedMatcher } from "./matchers/line-windows.js";
import { notFound } from "./not-found.js";
import { searchVariants } from "./search-variants.js";
import { transcribe } from "./transcribe.js";
import { lineAt, makeView, type TextView } from "./view.js";

/** Options of {@link replace}. */
export interface ReplaceOptions {
  /** Replace every match instead of requiring a unique one. */
  replaceAll?: boolean;
}

/** A successful {@link replace}. */
export interface ReplaceResult {
  /** The new content (line endings and BOM as in the original). */
  content: string;
  /** The matcher that found the text (`escape-normalised` when the search matched only unescaped). */
  matcher: MatcherName;
  /** 1-based line where the (first) replaced text starts. */
  line: number;
  /** 1-based start lines of every replacement (one unless `replaceAll`). */
  lines: number[];
  /** True when `oldString` matched only without the line-number prefixes copied from a file view. */
  lineNumbersStripped?: boolean;
}

/**
 * Replaces `oldString` with `newString` in `content`, forgiving the mistakes models make in the
 * search text (indentation and its width, tabs vs spaces, trailing whitespace, copied line-number
 * prefixes, escaped newlines, curly quotes, zero-width characters, blank lines, partial first/last
 * lines, CRLF) but never guessing between several places. The replacement is written in the file's
 * terms: what the model kept from its search stays as the file has it, new lines take the file's
 * indentation and characters. `newString` is otherwise inserted literally (no `$&`/`$$` patterns).
 * A CRLF file stays CRLF and a BOM is kept.
 *
 * Throws {@link ReplaceError}: `not_found` (with the closest region when one is close), `multiple`
 * (with every match's line), `indentation_mismatch`, `line_number_prefix`, `elision` (a
 * `// ... existing code ...` line of `newString` stands where `oldString` has real lines),
 * `no_change` or `empty_search`.
 *
 * @example
 * ```ts
 * const { content, matcher, line } = replace("a\n    b()\n", "b()", "c()");
 * // content === "a\n    c()\n", matcher === "exact", line === 2
 * ```
 */
export function replace(content: string, oldString: string, newString: string, options: ReplaceOptions = {}): ReplaceResult {
  if (oldString === "") {
    throw new ReplaceError("oldString is empty: give the exact text to replace (to create a file, write it instead).", {
      code: "empty_search",
    });
  }
  if (oldString === newString) {
    throw new ReplaceError("oldString and newString are identical: there is nothing to change.", { code: "no_change" });
  }
  const bom = content.startsWith(BOM);
  const text = stripBom(content);
  const eol = dominantEol(text);
  const adapt = (s: string): string => (eol === "\r\n" ? s.replace(/\n/g, "\r\n") : s);
  const view = makeView(text);
  const variants = searchVariants(stripBom(oldString).replace(/\r\n/g, "\n"), stripBom(newString).replace(/\r\n/g, "\n"));
  let last: MatchContext | undefined;
  for (const variant of variants) {
    const context = new MatchContext(view, toSearch(variant.search, adapt), last?.sharedForms, last?.cells);
    last = context;
    const matchers = variant.matchers === "exact" ? MATCHERS.slice(0, 1) : variant.matchers === "fuzzy" ? MATCHERS.slice(1) : MATCHERS;
    const found = runChain(context, matchers, options.replaceAll ?? false);
    if (!found) continue;
    if (found.chosen.length > 1 && !options.replaceAll) {
      const at = found.chosen.map((c) => lineAt(view, c.start) + 1);
      throw new ReplaceError(
        `Found ${at.length} matches for oldString (at lines ${at.join(", ")}). Include more surrounding lines in oldString to identify the one to change, or set replaceAll to change every one.`,
        { code: "multiple", matches: at },
      );
    }
    const starts = found.chosen.map((c) => lineAt(view, c.start) + 1);
    // In a file whose own lines look prefixed (a TSV of numbers), the numbers must be where they point.
    if (variant.prefix && starts[0] !== variant.prefix.firstNumber && fileUsesPrefix(view.lines, variant.prefix.style)) continue;
    if (variant.kind === "as-written") refusePrefixedReplacement(variant.search, variant.replacement, view, starts[0]!);
    refuseElision(variant.search, variant.replacement);
    const pieces: string[] = [];
    let at = 0;
    for (const c of found.chosen.map((c) => asWholeLines(context, c))) {
      pieces.push(text.slice(at, c.start), adapt(transcribe(context, c, variant.replacement)));
      at = c.end;
    }
    pieces.push(text.slice(at));
    const out = pieces.join("");
    const matcher = variant.kind === "unescaped" ? "escape-normalised" : found.matcher;
    if (out === text) {
      throw new ReplaceError(`The file already contains the replacement text at line ${starts[0]} (matched by ${matcher}); nothing to change.`, {
        code: "no_change",
      });
    }
    return {
      content: (bom ? BOM : "") + out,
      matcher,
      line: starts[0]!,
      lines: starts,
      ...(variant.kind === "line-numbers" ? { lineNumbersStripped: true } : {}),
    };
  }
  throw notFound(last!, variants);
}

/**
 * A substring match that starts inside a line's indentation and ends at a line's end is a match of
 * whole lines written with less indentation (`    b()` found in `      b()`): it is widened to the
 * whole lines, so the replacement is re-indented by levels like any whole-line match.
 */
function asWholeLines(ctx: MatchContext, c: Candidate): Candidate {
  const { view, search } = ctx;
  if (c.pairs || !/^[ \t]/.test(search.text)) return c;
  const first = lineAt(view, c.start);
  const before = view.text.slice(view.starts[first]!, c.start);
  if (before === "" || before.trim() !== "") return c;
  const last = first + search.lines.length - 1;
  const end = search.trailingNewline ? (view.starts[last + 1] ?? view.text.length) : view.ends[last];
  if (end !== c.end) return c;
  return ctx.lineSpan(first, last, alignedPairs(first, search.lines.length));
}

function toSearch(text: string, adapt: (s: string) => string): Search {
  const trailingNewline = text.endsWith("\n");
  const lines = (trailingNewline ? text.slice(0, -1) : text).split("\n");
  return { text, lines, trailingNewline, adapt };
}

/**
 * The first matcher that finds anything, with what it found (every match with `replaceAll`, else all
 * it found). Only a stricter test may narrow it down: blocks equal once trimmed of which one keeps
 * the search's relative indentation (indentation-flexible) — never a looser matcher.
 */
function runChain(ctx: MatchContext, matchers: readonly Matcher[], replaceAll: boolean): { matcher: MatcherName; chosen: Candidate[] } | undefined {
  const find = (m: Matcher): Candidate[] => onCharacterBoundaries(ctx.view.text, distinct(m.find(ctx)));
  for (const matcher of matchers) {
    const found = find(matcher);
    if (found.length === 0) continue;
    refuseUncertain(ctx, matcher, found);
    if (replaceAll) return { matcher: matcher.name, chosen: nonOverlapping(found) };
    if (found.length > 1 && matcher === lineTrimmedMatcher) {
      const kept = find(indentationFlexibleMatcher);
      if (kept.length === 1) return { matcher: indentationFlexibleMatcher.name, chosen: kept };
    }
    return { matcher: matcher.name, chosen: found };
  }
  return undefined;
}

/**
 * A scored matcher that could not afford to compare some block (lines too long) cannot say there is
 * no look-alike: refused, naming the lines, rather than replacing one of several possible places.
 */
function refuseUncertain(ctx: MatchContext, matcher: Matcher, found: readonly Candidate[]): void {
  const uncertain = found.filter((c) => c.uncertain);
  if (uncertain.length === 0) return;
  const at = uncertain.map((c) => lineAt(ctx.view, c.start) + 1);
  throw new ReplaceError(
    `oldString was not found as written, and the ${matcher.name} matcher could not compare it with the block at line${at.length > 1 ? "s" : ""} ${at.join(", ")} (lines too long to compare fuzzily in the time allowed), so it cannot rule out a look-alike. Nothing was changed. Copy oldString exactly from the file.`,
    { code: "not_found" },
  );
}

/**
 * A replacement that carries line-number prefixes (every line, numbered consecutively) when the search
 * has none would write them into the file: refused when they can only be a copied view — a form that
 * is never content (read's padded number and tab, `12→`, Codex's `L12: `, grep's `path:12:`) or numbers
 * that start at the matched line, as the view of those lines showed them. Otherwise the numbers are
 * content (`2025: launch`, a YAML map `8080: web`, a numbered list) and are written as given; so is
 * anything when the file itself has such lines.
 */
function refusePrefixedReplacement(search: string, replacement: string, view: TextView, line: number): void {
  const rLines = replacement.replace(/\n$/, "").split("\n");
  const style = detectPrefix(rLines);
  if (!style || detectPrefix(search.replace(/\n$/, "").split("\n")) || fileUsesPrefix(view.lines, style)) return;
  const first = firstPrefixNumber(rLines, style)!;
  const firstLine = rLines.find((l) => l.trim() !== "") ?? "";
  // One line may also be a view's when the prefix is all that keeps it from resembling oldString
  // (`12: x = 2` for `x = 1`), or numbers a line next to the match.
  const bare = stripPrefix([firstLine], style)[0]!.trim();
  const resembles = rLines.length === 1 && similarity(bare, search.trim(), 0) >= 0.6 && similarity(bare, search.trim(), 0) > similarity(firstLine.trim(), search.trim(), 0);
  const atMatch = first === line || (rLines.length === 1 && Math.abs(first - line) <= 2);
  if (!style.unmistakable && !atMatch && !resembles) return;
  throw new ReplaceError(
    `newString starts its lines with line numbers (${describePrefix(style)}), as a file view shows them, but oldString does not; they would be written into the file. Nothing was changed. Give newString without the line-number prefixes.`,
    { code: "line_number_prefix" },
  );
}

function distinct(found: Candidate[]): Candidate[] {
  const seen = new Set<string>();
  return found
    .filter((c) => {
      const key = `${c.start}:${c.end}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .sort((a, b) => a.start - b.start || a.end - b.end);
}

function nonOverlapping(found: Candidate[]): Candidate[] {
  const out: Candidate[] = [];
  for (const c of found) if (out.length === 0 || c.start >= out[out.length - 1]!.end) out.push(c);
  return out;
}
