// Wraps streamed text at word boundaries for a terminal of a given width. Text arrives in pieces that
// may end mid-word, so the last, unfinished word is held back until a space or line break shows where
// it ends; a word longer than a whole line is cut at the line's end.

export class WordWrap {
  private column = 0;
  private word = "";

  private readonly width: () => number | undefined;

  /** `width()`: the terminal's columns now (it may be resized), or undefined for no wrapping. */
  constructor(width: () => number | undefined) {
    this.width = width;
  }

  /** Takes more text; returns what can be written now. */
  push(text: string): string {
    let out = "";
    for (const char of text) {
      if (char === "\n") {
        out += `${this.flushWord()}\n`;
        this.column = 0;
      } else if (char === " " || char === "\t") {
        out += this.flushWord();
        const width = this.width();
        // A space that would end the line becomes the line break.
        if (width !== undefined && this.column + 1 >= width) {
          out += "\n";
          this.column = 0;
        } else {
          out += char;
          this.column++;
        }
      } else {
        this.word += char;
      }
    }
    return out;
  }

  /** Everything held back (the end of a stream, or before something else is written). */
  flush(): string {
    return this.flushWord();
  }

  /** Someone else wrote a line break: the next text starts a fresh line. */
  reset(): void {
    this.column = 0;
    this.word = "";
  }

  private flushWord(): string {
    const word = [...this.word];
    this.word = "";
    if (word.length === 0) return "";
    const width = this.width();
    if (width === undefined || width < 2) {
      this.column += word.length;
      return word.join("");
    }
    let out = "";
    // Moved to the next line when it does not fit on this one (and this one is not empty).
    if (this.column > 0 && this.column + word.length > width) {
      out += "\n";
      this.column = 0;
    }
    // A word longer than the whole line is cut where the line ends.
    for (let start = 0; start < word.length; ) {
      const room = width - this.column;
      const piece = word.slice(start, start + room);
      out += piece.join("");
      this.column += piece.length;
      start += piece.length;
      if (start < word.length) {
        out += "\n";
        this.column = 0;
      }
    }
    return out;
  }
}
