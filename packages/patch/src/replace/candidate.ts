// What the matchers produce and share.
import { collapseWhitespace } from "../text/normalize.js";
import { type CellBudget, cellBudget } from "../text/similarity.js";
import type { TextView } from "./view.js";

const NON_ASCII = /[^\x00-\x7f]/;

/** Cells of one edit's fuzzy line comparisons, across matchers and readings of a context. */
const MATCHER_CELLS = 10_000_000;

/** A span of the file a matcher proposes to replace. */
export interface Candidate {
  start: number;
  end: number;
  /**
   * For matches of whole lines: the search line each matched file line corresponds to (pairs of
   * search line index → file line index), used to carry an indentation correction over to the
   * replacement. Undefined for substring matches.
   */
  pairs?: Array<[number, number]>;
  /**
   * A scored matcher could not afford to tell whether this block resembles the search (lines too
   * long to compare within the budget): it may be a look-alike, so nothing is replaced while one is found.
   */
  uncertain?: boolean;
}

/** The search text in the forms the matchers need. */
export interface Search {
  /** The search with "\n" line breaks. */
  text: string;
  /** Its lines (a trailing newline does not add an empty last line). */
  lines: string[];
  /** The search ended with a newline: a whole-line match then also takes the last line's ending. */
  trailingNewline: boolean;
  /** Converts "\n" to the file's line ending, for substring search. */
  adapt: (text: string) => string;
}

/** Everything a matcher looks at; normalised line forms are computed once per edit and shared. */
export class MatchContext {
  readonly view: TextView;
  readonly search: Search;
  private readonly forms: Map<(line: string) => string, string[]>;
  /** Levenshtein cells the scored matchers of this edit may fill in all (≈ 30 ms), shared by its readings. */
  readonly cells: CellBudget;

  /** `forms` may be shared by contexts of one view (several readings of one search). */
  constructor(view: TextView, search: Search, forms = new Map<(line: string) => string, string[]>(), cells = cellBudget(MATCHER_CELLS)) {
    this.view = view;
    this.search = search;
    this.forms = forms;
    this.cells = cells;
  }

  /** The normalised line forms computed so far, to share with another context of the same view. */
  get sharedForms(): Map<(line: string) => string, string[]> {
    return this.forms;
  }

  /** The file's lines under a normaliser (cached by function identity). */
  linesAs(normalize: (line: string) => string): readonly string[] {
    let form = this.forms.get(normalize);
    if (!form) {
      form = this.view.lines.map(normalize);
      this.forms.set(normalize, form);
    }
    return form;
  }

  /**
   * The file's lines whitespace-collapsed and, where they hold non-ASCII text, with `fold` applied
   * first: built on the collapsed lines, so the (usually ASCII) lines of code cost nothing more.
   */
  linesFolded(fold: (line: string) => string): readonly string[] {
    let form = this.forms.get(fold);
    if (!form) {
      const lines = this.view.lines;
      form = this.linesAs(collapseWhitespace).map((collapsed, i) => (NON_ASCII.test(lines[i]!) ? collapseWhitespace(fold(lines[i]!)) : collapsed));
      this.forms.set(fold, form);
    }
    return form;
  }

  /** The span of whole lines `first..last` (with the last line's ending when the search had one). */
  lineSpan(first: number, last: number, pairs: Array<[number, number]>, trailingNewline = this.search.trailingNewline): Candidate {
    const { starts, ends, text } = this.view;
    const end = trailingNewline ? (starts[last + 1] ?? text.length) : ends[last]!;
    return { start: starts[first]!, end, pairs };
  }
}

/** A named matcher of the chain. */
export interface Matcher {
  name: MatcherName;
  find(ctx: MatchContext): Candidate[];
}

/** Names of the matchers, in the order they are tried. */
export type MatcherName =
  | "exact"
  | "line-trimmed"
  | "block-anchored"
  | "whitespace-normalised"
  | "indentation-flexible"
  | "escape-normalised"
  | "unicode-normalised"
  | "trimmed-boundary"
  | "context-aware";

/** Every occurrence (overlapping ones included) of `needle` in `text`. */
export function occurrences(text: string, needle: string): Array<[number, number]> {
  const found: Array<[number, number]> = [];
  if (needle === "") return found;
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + 1)) found.push([i, i + needle.length]);
  return found;
}

/** Pairs (k, first + k) for every k of a window of `count` lines. */
export function alignedPairs(first: number, count: number): Array<[number, number]> {
  return Array.from({ length: count }, (_, k) => [k, first + k] as [number, number]);
}
