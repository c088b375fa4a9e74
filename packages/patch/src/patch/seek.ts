// Finding a chunk's old lines in a file. Passes run from strict to loose and each pass scans the
// whole remaining file before the next one starts, so an exact match anywhere always wins over a
// fuzzy one. The loose passes forgive what models and editors garble: trailing and leading
// whitespace, typographic punctuation (curly quotes, dashes, ellipsis, non-breaking spaces), and
// composed vs decomposed accents.
import { canonicalUnicode, foldPunctuation } from "../text/normalize.js";

/** The comparison passes, in the order they are tried. */
export const SEEK_PASSES = ["exact", "trim-end", "trim", "punctuation", "unicode"] as const;
/** Name of a comparison pass. */
export type SeekPass = (typeof SEEK_PASSES)[number];

const NORMALIZERS: Record<SeekPass, (line: string) => string> = {
  exact: (l) => l,
  "trim-end": (l) => l.trimEnd(),
  trim: (l) => l.trim(),
  punctuation: (l) => foldPunctuation(l).trim(),
  unicode: (l) => canonicalUnicode(l).trim(),
};

/** A file's lines with each pass's normalised form computed once, on first use. */
export class LineIndex {
  readonly lines: readonly string[];
  private readonly forms = new Map<SeekPass, string[]>();

  constructor(lines: readonly string[]) {
    this.lines = lines;
  }

  form(pass: SeekPass): readonly string[] {
    if (pass === "exact") return this.lines;
    let form = this.forms.get(pass);
    if (!form) {
      form = this.lines.map(NORMALIZERS[pass]);
      this.forms.set(pass, form);
    }
    return form;
  }

  /**
   * Index of the first occurrence of `pattern` at or after `start`, trying each pass in turn; with
   * `atEnd` only the position that ends at the last line is tried. -1 when not found.
   */
  seek(pattern: readonly string[], start: number, atEnd: boolean): { index: number; pass: SeekPass } | undefined {
    const n = this.lines.length;
    const m = pattern.length;
    if (m > n) return undefined;
    const from = atEnd ? n - m : start;
    const to = n - m;
    for (const pass of SEEK_PASSES) {
      const hay = this.form(pass);
      const needle = pass === "exact" ? pattern : pattern.map(NORMALIZERS[pass]);
      outer: for (let i = from; i <= to; i++) {
        for (let k = 0; k < m; k++) if (hay[i + k] !== needle[k]) continue outer;
        return { index: i, pass };
      }
    }
    return undefined;
  }
}
