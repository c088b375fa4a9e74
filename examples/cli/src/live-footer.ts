// The live lines at the bottom of the terminal while a turn runs: the running tool's spinner, the
// messages waiting for the agent and the line the user types in. The turn's own output (the
// transcript) keeps streaming above them: every write takes the footer away, writes, and draws it
// again below, so a half-written line of the model's text goes on where it stopped.
import { stripVTControlCharacters } from "node:util";
import stringWidth from "fast-string-width";

/** One footer line: plain text (cut to the terminal's width, so that it takes one row) and how it is coloured. */
export interface FooterLine {
  text: string;
  style?: (text: string) => string;
}

/** What the footer shows, top to bottom; the terminal's cursor stays on the input line. */
interface Sections {
  status: FooterLine | undefined;
  notes: FooterLine[];
  input: { line: FooterLine; cursor: number } | undefined;
}

/** The columns a piece of terminal output takes (colours left out; wide characters such as CJK take two). */
export const displayWidth = (text: string) => stringWidth(stripVTControlCharacters(text));

/** `text` cut to at most `width` columns, ending in "…" when cut. */
export function fitWidth(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  return `${leadingColumns([...text], width - 1).join("")}…`;
}

/** The end of `text` that fits in `width` columns, starting with "…" when cut (an input line shows where the user types). */
export function fitWidthFromEnd(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  return `…${leadingColumns([...text].reverse(), width - 1).reverse().join("")}`;
}

/** The first characters of `chars` that fit in `columns`. */
function leadingColumns(chars: string[], columns: number): string[] {
  const out: string[] = [];
  let used = 0;
  for (const char of chars) {
    const w = displayWidth(char);
    if (used + w > columns) break;
    out.push(char);
    used += w;
  }
  return out;
}

export class LiveFooter {
  private readonly out: NodeJS.WriteStream;
  private readonly sections: Sections = { status: undefined, notes: [], input: undefined };
  /** Rows the footer takes on the screen now (0: not drawn). */
  private rows = 0;
  /** Where the transcript's cursor is on its line: the next write goes on there. */
  private column = 0;
  /** Between {@link start} and {@link stop}: writes go around the footer. */
  private active = false;
  /** While something else (an approval menu) owns the terminal: nothing is drawn. */
  private suspended = false;
  /**
   * The transcript's last line filled the terminal's width when the footer was taken away: the cursor
   * waits at the start of the next row, where the terminal would have wrapped (a cursor cannot be put
   * back past a line's last column). A line break written next is that wrap, and is not written again.
   */
  private atWrap = false;

  constructor(out: NodeJS.WriteStream) {
    this.out = out;
  }

  /** The terminal's width, as the footer cuts its lines to. */
  get columns(): number {
    return this.out.columns || 80;
  }

  /** Starts drawing below the transcript, whose cursor is at the start of a line. */
  start(): void {
    this.active = true;
    this.suspended = false;
    this.atWrap = false;
    this.column = 0;
    this.redraw();
  }

  /** Takes the footer away for good (until the next {@link start}); its content is forgotten. */
  stop(): void {
    this.out.write(this.erase());
    this.active = false;
    this.sections.status = undefined;
    this.sections.notes = [];
    this.sections.input = undefined;
  }

  /** Takes the footer away while another prompt uses the terminal; that prompt ends at a line start. */
  suspend(): void {
    if (!this.active || this.suspended) return;
    this.out.write(this.erase());
    this.suspended = true;
  }

  /** Draws the footer again after {@link suspend}. */
  resume(): void {
    if (!this.active || !this.suspended) return;
    this.suspended = false;
    this.column = 0;
    this.redraw();
  }

  /** Writes transcript output above the footer (straight through when the footer is not shown). */
  write(text: string): void {
    if (text === "") return;
    if (!this.active || this.suspended) {
      this.out.write(text);
      return;
    }
    const erase = this.erase();
    const body = this.atWrap ? text.replace(/^((?:\x1b\[[0-9;]*m)*)\r?\n/, "$1") : text;
    this.atWrap = false;
    this.out.write(erase + body + this.track(body) + this.draw());
  }

  /** The spinner's line, or none. */
  setStatus(line: FooterLine | undefined): void {
    if (line === undefined && this.sections.status === undefined) return;
    this.sections.status = line;
    this.redraw();
  }

  /** Lines about the messages waiting for the agent. */
  setNotes(lines: FooterLine[]): void {
    this.sections.notes = lines;
    this.redraw();
  }

  /** The input line, with the cursor `cursor` columns into it; undefined hides it. */
  setInput(line: FooterLine | undefined, cursor = 0): void {
    this.sections.input = line ? { line, cursor } : undefined;
    this.redraw();
  }

  private redraw(): void {
    if (!this.active || this.suspended) return;
    this.out.write(this.erase() + this.draw());
  }

  /** Follows the transcript's cursor across `text`; returns nothing to write (a chaining helper). */
  private track(text: string): string {
    const plain = stripVTControlCharacters(text);
    const cut = Math.max(plain.lastIndexOf("\n"), plain.lastIndexOf("\r"));
    this.column = cut >= 0 ? displayWidth(plain.slice(cut + 1)) : this.column + displayWidth(plain);
    // A line longer than the terminal wrapped: the cursor is on its last row (at the very end when full).
    const width = this.columns;
    if (this.column > width) this.column = ((this.column - 1) % width) + 1;
    return "";
  }

  /** The escape codes that remove the footer and put the cursor back at the transcript's end. */
  private erase(): string {
    if (this.rows === 0) return "";
    // Row by row, bottom up: clearing "to the end of the screen" from the top-left corner makes some
    // terminals (tmux) keep the cleared rows in their scroll-back.
    const clear = `\r\x1b[2K${"\x1b[1A\x1b[2K".repeat(this.rows - 1)}`;
    this.rows = 0;
    if (this.column >= this.columns) {
      this.column = 0;
      this.atWrap = true;
      return clear;
    }
    // The footer starts on the row below a half-written transcript line, else on its own row.
    return this.column > 0 ? `${clear}\x1b[1A\x1b[${this.column + 1}G` : clear;
  }

  /** The footer's lines, each one row, with the cursor left on the input line. */
  private draw(): string {
    const { status, notes, input } = this.sections;
    const lines = [...(status ? [status] : []), ...notes, ...(input ? [input.line] : [])];
    if (lines.length === 0) return "";
    const width = this.columns - 1;
    const rows = lines.map((line) => {
      const text = fitWidth(line.text, width);
      return line.style ? line.style(text) : text;
    });
    this.rows = rows.length;
    const cursor = input ? `\x1b[${Math.min(input.cursor, width) + 1}G` : "";
    return `${this.column > 0 ? "\n" : ""}${rows.join("\n")}${cursor}`;
  }
}
