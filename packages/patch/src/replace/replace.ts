// replace(): the fuzzy find/replace behind the `edit` tool. Matchers are tried from strict to loose;
// the first that finds exactly one place wins. Where OpenCode would guess, this refuses: a search
// that fits several places is an error listing them, and a loose matcher cannot pick one of the
// places a stricter matcher found ambiguous unless its match covers exactly one of them.
import { ReplaceError } from "../errors.js";
import { BOM, dominantEol, stripBom } from "../text/lines.js";
import { findNearMiss } from "../text/near-miss.js";
import { indentOf, unescapeText } from "../text/normalize.js";
import { type Candidate, MatchContext, type MatcherName, type Search } from "./candidate.js";
import { MATCHERS } from "./matchers/index.js";
import { applyIndentFix, inferIndentFix } from "./reindent.js";
import { lineAt, makeView } from "./view.js";

/** Options of {@link replace}. */
export interface ReplaceOptions {
  /** Replace every match instead of requiring a unique one. */
  replaceAll?: boolean;
}

/** A successful {@link replace}. */
export interface ReplaceResult {
  /** The new content (line endings and BOM as in the original). */
  content: string;
  /** The matcher that found the text. */
  matcher: MatcherName;
  /** 1-based line where the (first) replaced text starts. */
  line: number;
  /** 1-based start lines of every replacement (one unless `replaceAll`). */
  lines: number[];
}

/**
 * Replaces `oldString` with `newString` in `content`, forgiving the mistakes models make in the
 * search text (indentation, tabs vs spaces, trailing whitespace, escaped newlines, curly quotes,
 * blank lines, partial first/last lines, CRLF) but never guessing between several places.
 * `newString` is inserted literally (no `$&`/`$$` patterns). A CRLF file stays CRLF and a BOM is kept.
 *
 * Throws {@link ReplaceError}: `not_found` (with the closest region when one is close), `multiple`
 * (with every match's line), `no_change` or `empty_search`.
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
  const searchText = stripBom(oldString).replace(/\r\n/g, "\n");
  const replacementText = stripBom(newString).replace(/\r\n/g, "\n");
  const trailingNewline = searchText.endsWith("\n");
  const lines = (trailingNewline ? searchText.slice(0, -1) : searchText).split("\n");
  const search: Search = { text: searchText, lines, trailingNewline, adapt };
  const ctx = new MatchContext(makeView(text), search);

  let ambiguous: Candidate[] | undefined;
  for (const matcher of MATCHERS) {
    const found = distinct(matcher.find(ctx));
    if (found.length === 0) continue;
    let chosen: Candidate[];
    if (options.replaceAll) chosen = nonOverlapping(found);
    else if (found.length === 1 && (!ambiguous || ambiguous.filter((c) => overlaps(c, found[0]!)).length === 1)) chosen = found;
    else {
      ambiguous ??= found;
      continue;
    }
    let replacement = replacementText;
    if (matcher.name === "escape-normalised" && !searchText.includes("\n") && !replacementText.includes("\n")) {
      // The whole search was escaped one level too many; the replacement was written the same way.
      replacement = unescapeText(replacementText);
    }
    let out = text;
    for (const c of [...chosen].reverse()) {
      out = out.slice(0, c.start) + adapt(fixIndent(c, replacement, ctx)) + out.slice(c.end);
    }
    if (out === text) {
      throw new ReplaceError(
        `The file already contains the replacement text at line ${lineAt(ctx.view, chosen[0]!.start) + 1} (matched by ${matcher.name}); nothing to change.`,
        { code: "no_change" },
      );
    }
    const starts = chosen.map((c) => lineAt(ctx.view, c.start) + 1);
    return { content: (bom ? BOM : "") + out, matcher: matcher.name, line: starts[0]!, lines: starts };
  }
  if (ambiguous) {
    const at = ambiguous.map((c) => lineAt(ctx.view, c.start) + 1);
    throw new ReplaceError(
      `Found ${ambiguous.length} matches for oldString (at lines ${at.join(", ")}). Include more surrounding lines in oldString to identify the one to change, or set replaceAll to change every one.`,
      { code: "multiple", matches: at },
    );
  }
  const nearMiss = findNearMiss(ctx.view.lines, lines);
  const hint = nearMiss
    ? ` The closest text is at lines ${nearMiss.startLine}-${nearMiss.endLine} (similarity ${nearMiss.similarity}):\n${nearMiss.text}\nCopy oldString exactly from the file (re-read it if it may have changed).`
    : " Re-read the file and copy oldString exactly, including whitespace and indentation.";
  throw new ReplaceError(`Could not find oldString in the file.${hint}`, { code: "not_found", ...(nearMiss ? { nearMiss } : {}) });
}

/**
 * The replacement with the candidate's indentation correction applied (whole-line matches only), when
 * the replacement was written with the same indentation as the search; a replacement that already
 * uses the file's indentation is left as it is.
 */
function fixIndent(c: Candidate, replacement: string, ctx: MatchContext): string {
  if (!c.pairs) return replacement;
  const firstIndent = (lines: readonly string[]): string => indentOf(lines.find((l) => l.trim() !== "") ?? "");
  if (firstIndent(replacement.split("\n")) !== firstIndent(ctx.search.lines)) return replacement;
  const fix = inferIndentFix(c.pairs.map(([k, i]) => [ctx.search.lines[k] ?? "", ctx.view.lines[i] ?? ""] as const));
  return fix ? applyIndentFix(replacement, fix) : replacement;
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

function overlaps(a: Candidate, b: Candidate): boolean {
  return a.start < b.end && b.start < a.end;
}
