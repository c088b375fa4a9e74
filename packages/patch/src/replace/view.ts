// The content an edit searches: its text and lines with offsets, so a match on lines maps back to
// an exact span of the file. Lines break at "\n"; a "\r" before it belongs to the ending, not the line.

/** A text indexed by line. */
export interface TextView {
  text: string;
  /** Line texts without their endings (a final empty line after a trailing newline is not listed). */
  lines: string[];
  /** Offset where each line starts. */
  starts: number[];
  /** Offset where each line's text ends (before "\r\n" or "\n"). */
  ends: number[];
}

export function makeView(text: string): TextView {
  const lines: string[] = [];
  const starts: number[] = [];
  const ends: number[] = [];
  let start = 0;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", start)) {
    const end = i > start && text.charCodeAt(i - 1) === 13 ? i - 1 : i;
    lines.push(text.slice(start, end));
    starts.push(start);
    ends.push(end);
    start = i + 1;
  }
  if (start < text.length) {
    lines.push(text.slice(start));
    starts.push(start);
    ends.push(text.length);
  }
  return { text, lines, starts, ends };
}

/** 0-based line holding `offset`. */
export function lineAt(view: TextView, offset: number): number {
  let lo = 0;
  let hi = view.starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (view.starts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return Math.max(0, lo);
}
