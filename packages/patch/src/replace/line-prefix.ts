// Line-number prefixes that models copy from a file view into an edit: Lathe's `read` prints
// `     12<TAB>text`; other agents print `12→text`, `12: text`, `12|text` or (Codex) `L12: text`, and
// grep/ripgrep `-n` print `path:12:text` (`path-12-text` for context lines) or `12:text`. A search
// whose every line carries one such prefix, numbered consecutively, is read without it; the prefix
// is never written into a file. Text that only looks prefixed (a numbered list, a TSV of numbers,
// `8080: web`) is matched as it is first, so stripping happens only when the text as written is not
// in the file. Some forms cannot be content — read's padded number and tab, the arrow, `L12: `,
// `path:12:` — the others (`12: `, `12|`, `12:`) are taken for prefixes only where the numbers say so.

/** A recognised prefix style. */
export interface PrefixStyle {
  /** Separator between number and text (`\t`, `→`, `: `, `|`…), or `grep` for `path:12:` / `path-12-`. */
  separator: string;
  /** The leading text before the number: `L` for Codex, the path for grep; empty for the others. */
  lead: string;
  /** True for forms that are never content: read's padded number and tab, `12→`, `L12: `, `path:12:`. */
  unmistakable: boolean;
}

/** The separators after a bare number, most specific first. */
const SEPARATORS = ["\t", "→", ": ", " | ", "| ", "|", ":"] as const;
/** read pads numbers to six characters: a number and tab that long is its output, never a TSV row. */
const READ_PAD = 6;

const NUMBER = /^ *(\d+)/;
const CODEX = /^L(\d+):/;
// `path:12:` (a match) or `path-12-` (a context line): the path has no spaces and names a file in
// a directory or with an extension (so `time:12:30` or `k-22-z` is not taken for one; checked after
// matching, as a lazy path keeps the regex linear on a long line).
const GREP_RE = /^([^\s:]+?)([:-])(\d+)\2/;

function grepPrefix(line: string): RegExpExecArray | null {
  const m = GREP_RE.exec(line);
  return m && /[./]/.test(m[1]!) && /[^\d./]/.test(m[1]!) ? m : null;
}

/** The line's number and the rest, when it carries `style`'s prefix (a blank line may have lost the separator's trailing space). */
function splitPrefix(line: string, style: PrefixStyle): { number: number; rest: string } | undefined {
  if (style.separator === "grep") {
    const m = grepPrefix(line);
    return m && m[1] === style.lead ? { number: Number(m[3]), rest: line.slice(m[0].length) } : undefined;
  }
  let m: RegExpExecArray | null;
  let separator = style.separator;
  if (style.lead === "L") {
    m = CODEX.exec(line);
    separator = " ";
  } else m = NUMBER.exec(line);
  if (!m) return undefined;
  const after = line.slice(m[0].length);
  const number = Number(m[1]);
  if (after.startsWith(separator)) return { number, rest: after.slice(separator.length) };
  // `12:` or `12` alone: a blank line whose separator was trimmed away with the trailing whitespace.
  if (after === "" || after === separator.trimEnd()) return { number, rest: "" };
  return undefined;
}

/** The styles a set of lines may carry, most specific first (grep's path taken from the first line). */
function candidateStyles(first: string): PrefixStyle[] {
  const styles: PrefixStyle[] = [];
  const grep = grepPrefix(first);
  if (grep) styles.push({ separator: "grep", lead: grep[1]!, unmistakable: true });
  if (CODEX.test(first)) styles.push({ separator: ": ", lead: "L", unmistakable: true });
  for (const separator of SEPARATORS) {
    const padded = separator === "\t" && (/^ *\d+\t/.exec(first)?.[0].length ?? 0) > READ_PAD;
    styles.push({ separator, lead: "", unmistakable: separator === "→" || padded });
  }
  return styles;
}

/** The style every line carries with consecutive numbers, if any (lines are "\n"-split, without a trailing empty one). */
export function detectPrefix(lines: readonly string[]): PrefixStyle | undefined {
  if (lines.length === 0) return undefined;
  for (const style of candidateStyles(lines.find((l) => l.trim() !== "") ?? lines[0]!)) {
    let previous: number | undefined;
    let ok = true;
    let withText = 0;
    for (const line of lines) {
      const split = splitPrefix(line, style);
      if (!split || (previous !== undefined && split.number !== previous + 1)) {
        ok = false;
        break;
      }
      if (split.rest !== "") withText++;
      previous = split.number;
    }
    // grep's view holds a match line (`path:12:`); context lines alone (`a-b-1-x`) are not taken for one.
    if (ok && withText > 0 && (style.separator !== "grep" || lines.some((l) => grepPrefix(l)?.[2] === ":"))) return style;
  }
  return undefined;
}

/** The number of the first line carrying `style`'s prefix. */
export function firstPrefixNumber(lines: readonly string[], style: PrefixStyle): number | undefined {
  for (const line of lines) {
    const split = splitPrefix(line, style);
    if (split) return split.number;
  }
  return undefined;
}

/** `lines` with the style's prefix removed from every line that carries it (others kept as they are). */
export function stripPrefix(lines: readonly string[], style: PrefixStyle): string[] {
  return lines.map((line) => splitPrefix(line, style)?.rest ?? line);
}

/** How many of `lines` carry some line-number prefix (any style), for explaining a miss. */
export function prefixedLineCount(lines: readonly string[]): number {
  return lines.filter((line) => line.trim() !== "" && candidateStyles(line).some((s) => s.separator !== ":" && splitPrefix(line, s) !== undefined)).length;
}

/** True when some line of the file itself starts the way `style` does (then such text may be real content). */
export function fileUsesPrefix(fileLines: readonly string[], style: PrefixStyle): boolean {
  return fileLines.some((line) => line.trim() !== "" && splitPrefix(line, style) !== undefined);
}

/** A short sample of the style for messages, e.g. `12<TAB>`, `L12: `, `src/a.ts:12:`. */
export function describePrefix(style: PrefixStyle): string {
  if (style.separator === "grep") return `${style.lead}:12:`;
  return `${style.lead}12${style.separator === "\t" ? "<TAB>" : style.separator}`;
}
