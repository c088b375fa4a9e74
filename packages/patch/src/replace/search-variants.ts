// The readings of one edit that replace() tries, in order: the text as written; without the
// line-number prefixes copied from a file view; unescaped one level (`\n`, `\t`, `\"`, `\\` written
// out). A later reading is tried only when the earlier ones found nothing, and its replacement is
// read the same way, so what the file receives is what the model meant.
import { unescapeText } from "../text/normalize.js";
import { type PrefixStyle, detectPrefix, firstPrefixNumber, stripPrefix } from "./line-prefix.js";

/** One reading of an edit. */
export interface SearchVariant {
  kind: "as-written" | "line-numbers" | "unescaped";
  search: string;
  replacement: string;
  /** For `line-numbers`: the style stripped and the first line's number. */
  prefix?: { style: PrefixStyle; firstNumber: number };
  /** Which matchers of the chain this reading runs (all by default). */
  matchers?: "exact" | "fuzzy";
}

/** The readings of `search` / `replacement` (both with "\n" line breaks). */
export function searchVariants(search: string, replacement: string): SearchVariant[] {
  const variants: SearchVariant[] = [{ kind: "as-written", search, replacement }];
  const trailing = search.endsWith("\n");
  const searchLines = (trailing ? search.slice(0, -1) : search).split("\n");
  const style = detectPrefix(searchLines);
  if (style) {
    const stripped = stripPrefix(searchLines, style).join("\n") + (trailing ? "\n" : "");
    const rTrailing = replacement.endsWith("\n");
    const rLines = (rTrailing ? replacement.slice(0, -1) : replacement).split("\n");
    // The replacement's own prefixes go too, in the search's style or another one it uses throughout.
    const rStyle = detectPrefix(rLines);
    const sameStyle = rStyle && rStyle.separator === style.separator && rStyle.lead === style.lead;
    const rStripped = stripPrefix(rStyle && !sameStyle ? stripPrefix(rLines, rStyle) : rLines, style);
    const newText = rStripped.join("\n") + (rTrailing ? "\n" : "");
    const firstNumber = firstPrefixNumber(searchLines, style)!;
    if (stripped.trim() !== "") {
      // Text carrying prefixes is taken as written only when it is there exactly (a numbered list, a
      // TSV); fuzzily (`     2<TAB>a` trimmed is the TSV row `2<TAB>a`) only after the reading without them.
      variants[0]!.matchers = "exact";
      variants.push({ kind: "line-numbers", search: stripped, replacement: newText, prefix: { style, firstNumber } });
      variants.push({ kind: "as-written", search, replacement, matchers: "fuzzy" });
    }
  }
  const unescaped = unescapeText(search);
  if (unescaped !== search) {
    variants.push({ kind: "unescaped", search: unescaped, replacement: writtenEscaped(search, replacement) ? unescapeText(replacement) : replacement });
  }
  return variants;
}

/**
 * True when the replacement uses one of the escapes the search used: it was written at the same
 * level of escaping and is unescaped too. A replacement typed plainly (real quotes, real newlines,
 * none of the search's escapes) keeps its backslashes, such as a `\n` inside a string literal.
 */
function writtenEscaped(search: string, replacement: string): boolean {
  const kinds = new Set([...search.matchAll(/\\(.)/gs)].map((m) => m[1]!));
  for (const m of replacement.matchAll(/\\(.)/gs)) if (kinds.has(m[1]!)) return true;
  return false;
}
