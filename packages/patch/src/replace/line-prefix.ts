// Line-number prefixes that models copy from a file view into an edit: Lathe's `read` prints
// `     12<TAB>text`; other agents print `12→text`, `12: text` or `12|text`. A search whose every line
// carries one such prefix, numbered consecutively, is read without it; the prefix is never written
// into a file. Text that only looks prefixed (a numbered list, a TSV of numbers) is matched as it is
// first, so stripping happens only when the text as written is not in the file.

/** The separators between number and text, most specific first. */
const SEPARATORS = ["\t", "→", ": ", " | ", "| ", "|"] as const;

/** A recognised prefix style. */
export interface PrefixStyle {
  separator: string;
}

const PREFIX = /^ *(\d+)/;

/** The line's number and the rest after `separator`, when it carries that prefix (a blank line may have lost the separator's trailing space). */
function splitPrefix(line: string, separator: string): { number: number; rest: string } | undefined {
  const m = PREFIX.exec(line);
  if (!m) return undefined;
  const after = line.slice(m[0].length);
  const number = Number(m[1]);
  if (after.startsWith(separator)) return { number, rest: after.slice(separator.length) };
  // `12:` or `12` alone: a blank line whose separator was trimmed away with the trailing whitespace.
  if (after === "" || after === separator.trimEnd()) return { number, rest: "" };
  return undefined;
}

/** The style every line carries with consecutive numbers, if any (lines are "\n"-split, without a trailing empty one). */
export function detectPrefix(lines: readonly string[]): PrefixStyle | undefined {
  if (lines.length === 0) return undefined;
  for (const separator of SEPARATORS) {
    let previous: number | undefined;
    let ok = true;
    let withText = 0;
    for (const line of lines) {
      const split = splitPrefix(line, separator);
      if (!split || (previous !== undefined && split.number !== previous + 1)) {
        ok = false;
        break;
      }
      if (split.rest !== "") withText++;
      previous = split.number;
    }
    if (ok && withText > 0) return { separator };
  }
  return undefined;
}

/** `lines` with the style's prefix removed from every line that carries it (others kept as they are). */
export function stripPrefix(lines: readonly string[], style: PrefixStyle): string[] {
  return lines.map((line) => splitPrefix(line, style.separator)?.rest ?? line);
}

/** How many of `lines` carry some line-number prefix (any style), for explaining a miss. */
export function prefixedLineCount(lines: readonly string[]): number {
  return lines.filter((line) => SEPARATORS.some((s) => splitPrefix(line, s) !== undefined && line.trim() !== "")).length;
}

/** True when some line of the file itself starts the way `style` does (then such text may be real content). */
export function fileUsesPrefix(fileLines: readonly string[], style: PrefixStyle): boolean {
  return fileLines.some((line) => line.trim() !== "" && splitPrefix(line, style.separator) !== undefined);
}

/** A short sample of the style for messages, e.g. `12<TAB>`. */
export function describePrefix(style: PrefixStyle): string {
  return `12${style.separator === "\t" ? "<TAB>" : style.separator}`;
}
