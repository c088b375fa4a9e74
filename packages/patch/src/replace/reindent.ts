// When a fuzzy matcher matched whole lines whose indentation differs from the search's in one
// consistent way (the model dropped a level, or wrote spaces for the file's tabs), the replacement
// almost certainly carries the same mistake; the same correction is applied to it, so an edit of
// Python or YAML does not come out mis-indented. An inconsistent difference is left alone.
import { indentOf } from "../text/normalize.js";

/** How to turn the search's indentation into the file's. */
export type IndentFix =
  | { kind: "add"; prefix: string }
  | { kind: "remove"; prefix: string }
  | { kind: "spaces-to-tabs"; width: number }
  | { kind: "tabs-to-spaces"; width: number };

const WIDTHS = [2, 4, 8];

/** The one correction that explains every (search line, file line) pair, if there is one. */
export function inferIndentFix(pairs: ReadonlyArray<readonly [string, string]>): IndentFix | undefined {
  const indents = pairs
    .filter(([s, f]) => s.trim() !== "" && f.trim() !== "")
    .map(([s, f]) => [indentOf(s), indentOf(f)] as const);
  if (indents.length === 0 || indents.every(([s, f]) => s === f)) return undefined;
  const [s0, f0] = indents[0]!;
  if (f0.endsWith(s0)) {
    const prefix = f0.slice(0, f0.length - s0.length);
    if (indents.every(([s, f]) => f === prefix + s)) return { kind: "add", prefix };
  }
  if (s0.endsWith(f0)) {
    const prefix = s0.slice(0, s0.length - f0.length);
    if (indents.every(([s, f]) => s === prefix + f)) return { kind: "remove", prefix };
  }
  for (const width of WIDTHS) {
    if (indents.every(([s, f]) => toTabs(s, width) === f)) return { kind: "spaces-to-tabs", width };
    if (indents.every(([s, f]) => toSpaces(s, width) === f)) return { kind: "tabs-to-spaces", width };
  }
  return undefined;
}

/** Applies a correction to the leading whitespace of every non-blank line of `text` (lines split on "\n"). */
export function applyIndentFix(text: string, fix: IndentFix): string {
  return text
    .split("\n")
    .map((line) => {
      if (line.trim() === "") return line;
      const indent = indentOf(line);
      const rest = line.slice(indent.length);
      switch (fix.kind) {
        case "add":
          return fix.prefix + line;
        case "remove":
          return indent.startsWith(fix.prefix) ? indent.slice(fix.prefix.length) + rest : line;
        case "spaces-to-tabs":
          return toTabs(indent, fix.width) + rest;
        case "tabs-to-spaces":
          return toSpaces(indent, fix.width) + rest;
      }
    })
    .join("\n");
}

function toTabs(indent: string, width: number): string {
  return indent.replace(new RegExp(` {${width}}`, "g"), "\t");
}

function toSpaces(indent: string, width: number): string {
  return indent.replace(/\t/g, " ".repeat(width));
}
