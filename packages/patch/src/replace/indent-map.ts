// When a whole-line match needed another indentation than the search's (the model wrote 2 spaces
// where the file has 4, spaces for its tabs, or the block a level too shallow), the replacement's new
// and changed lines are re-indented by *levels*: a line one level deeper than the search's base in
// the model's unit is one level deeper than the file's base in the file's unit. When the pairs of
// matched lines admit no such mapping (the file nests the lines differently from the search), there is
// none, and the edit is refused rather than written with a changed structure.
import { indentOf } from "../text/normalize.js";

/** Maps a replacement line's indentation to the file's. */
export type IndentMap = (indent: string) => string;

/** One matched line: the search's indentation and the file's. */
export interface IndentPair {
  search: string;
  file: string;
  /** 0-based search line and file line, for messages. */
  searchLine: number;
  fileLine: number;
}

/** The mapping, or the first pair that contradicts every mapping. */
export type IndentInference = { map: IndentMap } | { conflict: IndentPair };

type Kind = "tab" | "space";
interface Unit {
  kind: Kind;
  width: number;
}

const identity: IndentMap = (indent) => indent;

/**
 * Infers the level mapping from the matched pairs. `replacementIndents` (the replacement's non-blank
 * lines) help find the search's unit when the matched lines are all at one level; `fileUnit` gives
 * the file's unit when the matched file lines do not show it.
 */
export function inferIndentMap(pairs: readonly IndentPair[], replacementIndents: readonly string[], fileUnit: () => Unit | undefined): IndentInference {
  if (pairs.every((p) => p.search === p.file)) return { map: identity };
  const sKind = kindOf(pairs.map((p) => p.search));
  const fKind = kindOf(pairs.map((p) => p.file));
  if (sKind === "mixed" || fKind === "mixed") {
    const prefixed = prefixMap(pairs);
    if ("map" in prefixed) return prefixed;
    return columnMap(pairs) ?? prefixed;
  }
  // The file's own space character (U+3000, NBSP) is written in new indentation, not ASCII spaces.
  const space = spaceCharOf(pairs.map((p) => p.file));
  const xs = pairs.map((p) => width(p.search));
  const ys = pairs.map((p) => width(p.file));
  const x0 = Math.min(...xs);
  const base = xs.indexOf(x0);
  const y0 = ys[base]!;
  const deltas = xs.map((x) => x - x0).filter((d) => d > 0);
  let unitS: number;
  let unitF: number | undefined;
  if (deltas.length > 0) {
    unitS = deltas.reduce(gcd);
    for (let j = 0; j < pairs.length; j++) {
      const levels = (xs[j]! - x0) / unitS;
      const dy = ys[j]! - y0;
      if (levels === 0 ? dy !== 0 : dy % levels !== 0 || dy <= 0 || (unitF !== undefined && dy / levels !== unitF)) return { conflict: pairs[j]! };
      if (levels > 0) unitF = dy / levels;
    }
  } else {
    const conflict = pairs.find((_, j) => ys[j] !== y0);
    if (conflict) return { conflict };
    const rDeltas = replacementIndents.filter((i) => kindOf([i]) === (sKind ?? kindOf([i]))).map((i) => width(i) - x0).filter((d) => d > 0);
    unitS = rDeltas.length > 0 ? rDeltas.reduce(gcd) : 1;
  }
  // The file's own unit is looked at only when the matched lines do not show it.
  const file = fKind === undefined || unitF === undefined ? fileUnit() : undefined;
  const outKind: Kind = fKind ?? file?.kind ?? sKind ?? "space";
  // Without deeper matched lines, a level of the model's is a level of the file's.
  unitF ??= file && file.kind === outKind ? file.width : outKind === "tab" ? 1 : unitS;
  const stepF = unitF;
  const searchKind: Kind = sKind ?? (replacementIndents.some((i) => i.startsWith("\t")) ? "tab" : "space");
  return {
    map: (indent) => {
      const tabs = /^\t*/.exec(indent)![0].length;
      const spaces = indent.length - tabs;
      if (/\t/.test(indent.slice(tabs))) return indent;
      // In the model's unit: a tab is a level when it wrote spaces; trailing spaces after tabs are alignment.
      const x = searchKind === "tab" ? tabs : spaces + tabs * unitS;
      const extra = searchKind === "tab" ? spaces : 0;
      const levels = Math.floor((x - x0) / unitS);
      const rem = x - x0 - levels * unitS + extra;
      const y = Math.max(0, y0 + levels * stepF);
      return outKind === "tab" ? "\t".repeat(y) + " ".repeat(rem) : space.repeat(y + rem);
    },
  };
}

/** Tab widths tried, in turn, for a model that wrote a tabs-and-alignment file in spaces (4 is what models use most). */
const TAB_WIDTHS = [4, 8, 2, 3] as const;

/**
 * Kernel style — tabs for levels, spaces for alignment (`\tif (a &&` / `\t    b)`) — written by the
 * model in spaces only, or with a tab where the file aligns with spaces: both read as columns at some
 * tab width must differ line by line by the same amount. A new line then gets the file's columns as tabs and, for what is
 * left over, alignment spaces (transcribe.ts first copies the indentation of a line the model
 * indented the same way, so a continuation line keeps its alignment).
 */
function columnMap(pairs: readonly IndentPair[]): IndentInference | undefined {
  const tabsThenSpaces = /^\t* *$/;
  if (!pairs.every((p) => tabsThenSpaces.test(p.file) && tabsThenSpaces.test(p.search))) return undefined;
  for (const tab of TAB_WIDTHS) {
    const columns = (indent: string): number => {
      const tabs = /^\t*/.exec(indent)![0].length;
      return tabs * tab + indent.length - tabs;
    };
    const offset = columns(pairs[0]!.file) - columns(pairs[0]!.search);
    if (!pairs.every((p) => columns(p.file) - columns(p.search) === offset)) continue;
    return {
      map: (indent) => {
        if (!tabsThenSpaces.test(indent)) return indent;
        const column = Math.max(0, columns(indent) + offset);
        return "\t".repeat(Math.floor(column / tab)) + " ".repeat(column % tab);
      },
    };
  }
  return undefined;
}

/** The one character the file's indentation is made of when it is an odd space (U+3000, NBSP…), else an ASCII space. */
function spaceCharOf(indents: readonly string[]): string {
  const chars = new Set(indents.join("").replace(/\t/g, ""));
  const only = chars.size === 1 ? [...chars][0]! : " ";
  return only !== " " && /\s/.test(only) ? only : " ";
}

/** The file's own indentation unit: tabs when most indented lines use them, else the most common step between lines. */
export function detectFileUnit(lines: readonly string[]): Unit | undefined {
  let tabLines = 0;
  let spaceLines = 0;
  const steps = new Map<number, number>();
  let previous = 0;
  for (const line of lines) {
    if (line.trim() === "") continue;
    const indent = indentOf(line);
    if (indent.startsWith("\t")) tabLines++;
    else if (indent.length > 0) spaceLines++;
    if (/^ *$/.test(indent)) {
      const step = indent.length - previous;
      if (step > 0) steps.set(step, (steps.get(step) ?? 0) + 1);
      previous = indent.length;
    }
  }
  if (tabLines === 0 && spaceLines === 0) return undefined;
  if (tabLines > spaceLines) return { kind: "tab", width: 1 };
  const best = [...steps.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0];
  return best ? { kind: "space", width: best[0] } : undefined;
}

/** Tabs-only, spaces-only, both kinds across lines (or tabs and spaces in one), or none indented. */
function kindOf(indents: readonly string[]): Kind | "mixed" | undefined {
  let kind: Kind | "mixed" | undefined;
  for (const indent of indents) {
    if (indent === "") continue;
    // An NBSP or other odd space counts as a space (and is written back as one in new lines).
    const k: Kind | "mixed" = /^\t+$/.test(indent) ? "tab" : /^[^\S\t]+$/.test(indent) ? "space" : "mixed";
    if (kind === undefined) kind = k;
    else if (kind !== k) return "mixed";
  }
  return kind;
}

function width(indent: string): number {
  return indent.length;
}

/** For mixed indentation: the search and the file differ by one common leading prefix, or not at all consistently. */
function prefixMap(pairs: readonly IndentPair[]): IndentInference {
  const first = pairs[0]!;
  if (first.file.endsWith(first.search)) {
    const prefix = first.file.slice(0, first.file.length - first.search.length);
    const bad = pairs.find((p) => p.file !== prefix + p.search);
    if (!bad) return { map: (indent) => prefix + indent };
  }
  if (first.search.endsWith(first.file)) {
    const prefix = first.search.slice(0, first.search.length - first.file.length);
    const bad = pairs.find((p) => p.search !== prefix + p.file);
    if (!bad) return { map: (indent) => (indent.startsWith(prefix) ? indent.slice(prefix.length) : indent) };
  }
  return { conflict: pairs.find((p) => p.search !== p.file) ?? first };
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}
