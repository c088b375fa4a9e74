// A text file as lines that remember their own line endings, so an edit can touch some lines and
// leave every other byte (CRLF, lone CR, a missing final newline, a BOM) exactly as it was.

const BOM = "\uFEFF";

/** A file split into lines; `eols[i]` is the ending of `lines[i]` ("\r\n", "\n", "\r" or "" for the last). */
export interface LineFile {
  bom: boolean;
  lines: string[];
  eols: string[];
}

/** Splits text on "\r\n", "\n" and lone "\r"; a leading BOM is set aside. */
export function splitLineFile(content: string): LineFile {
  const bom = content.startsWith(BOM);
  const body = bom ? content.slice(1) : content;
  const lines: string[] = [];
  const eols: string[] = [];
  let start = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body.charCodeAt(i);
    if (c === 10 || c === 13) {
      lines.push(body.slice(start, i));
      if (c === 13 && body.charCodeAt(i + 1) === 10) {
        eols.push("\r\n");
        i++;
      } else eols.push(c === 10 ? "\n" : "\r");
      start = i + 1;
    }
  }
  if (start < body.length) {
    lines.push(body.slice(start));
    eols.push("");
  }
  return { bom, lines, eols };
}

/** Joins a {@link LineFile} back into text. */
export function joinLineFile(file: LineFile): string {
  let out = file.bom ? BOM : "";
  for (let i = 0; i < file.lines.length; i++) out += file.lines[i]! + file.eols[i]!;
  return out;
}

/** True when the text is empty or ends with a line ending. */
export function endsWithNewline(content: string): boolean {
  return content === "" || content.endsWith("\n") || content.endsWith("\r");
}

/** The file's first line ending, which inserted lines adopt; "\n" when it has none. */
export function firstEol(file: LineFile): string {
  return file.eols.find((e) => e !== "") ?? "\n";
}

/** "\r\n" when most line breaks in the text are CRLF, otherwise "\n". */
export function dominantEol(content: string): "\r\n" | "\n" {
  let crlf = 0;
  let lf = 0;
  for (let i = content.indexOf("\n"); i !== -1; i = content.indexOf("\n", i + 1)) {
    if (i > 0 && content.charCodeAt(i - 1) === 13) crlf++;
    else lf++;
  }
  return crlf > lf ? "\r\n" : "\n";
}

/** Strips a leading BOM. */
export function stripBom(text: string): string {
  return text.startsWith(BOM) ? text.slice(1) : text;
}

export { BOM };
