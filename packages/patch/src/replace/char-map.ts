// Writes a replacement in the file's own characters. A fuzzy match found the file's text F for the
// model's search S only after normalising (curly vs straight quotes, dashes, NBSP, NFC vs NFD,
// zero-width characters, tabs vs spaces inside a line); the model's replacement R was typed in S's
// terms. Every stretch of R that the model kept from S is written as the file has it, so text the
// edit did not mean to change stays byte for byte; text the model added follows the file's
// conventions seen in the match (a straight-quote program never gains a curly quote).
import { diffArrays } from "diff";
import { foldPunctuation } from "../text/normalize.js";
import { stripInvisible } from "../text/invisible.js";

// Tokens: a run of whitespace and zero-width characters; a word with its combining marks; any other
// character with its combining marks.
const TOKEN = /[\s\u200B-\u200D\u2060\uFEFF]+|[\p{L}\p{N}_][\p{L}\p{N}\p{M}_]*|[^][\p{M}]*/gu;

function tokenize(text: string): string[] {
  return text.match(TOKEN) ?? [];
}

/** Both pieces mean the same text once normalised (so the file's form may stand for the search's). */
function equivalent(a: string, b: string): boolean {
  const canon = (s: string): string => foldPunctuation(stripInvisible(s)).normalize("NFC").replace(/\s+/g, " ");
  return canon(a) === canon(b);
}

/** A stretch of S (tokens `from..to`) that the file writes as `file`. */
interface Chunk {
  from: number;
  to: number;
  file: string;
}

/** The plain form of each class; a typographic form is adopted only by a file that never uses it. */
const PLAIN: Record<string, string> = { double: '"', single: "'", ellipsis: "..." };

/**
 * What the match taught about the file's conventions, applied to text the model added. A typographic
 * form (curly quotes, `…`) is adopted only when the whole file never writes the plain one, so code with
 * one curly quote in a string never gains curly string delimiters; the plain form is adopted whenever
 * the file wrote it where the model typed a typographic one.
 */
export class Conventions {
  private readonly forms = new Map<string, string>();
  private readonly fileText: string;
  private nfd = false;
  private nfc = false;

  /** `fileText`: the whole file, to tell a prose file's typography from a program's. */
  constructor(fileText = "") {
    this.fileText = fileText;
  }

  /** True while nothing was learned (added text is then written as typed). */
  isEmpty(): boolean {
    return this.forms.size === 0 && !this.nfd && !this.nfc;
  }

  /** Records the characters of one normalised stretch (search form → file form). */
  learn(search: string, file: string): void {
    const s = [...search];
    const f = [...file];
    if (s.length === f.length) {
      for (let i = 0; i < s.length; i++) this.note(s[i]!, f[i]!);
    } else if (search === "..." || file === "...") this.note(search, file);
    if (file !== file.normalize("NFC")) this.nfd = true;
    else if (search !== search.normalize("NFC")) this.nfc = true;
  }

  private note(search: string, file: string): void {
    if (search === file) return;
    const key = classOf(search);
    if (!key || (classOf(file) !== key && !(key === "dash" && file === "-"))) return;
    const plain = PLAIN[key];
    if (plain !== undefined && file !== plain && this.fileText.includes(plain)) return;
    this.forms.set(key, file);
  }

  /** Added text in the file's conventions (`before`: the text written just before it). */
  apply(text: string, before: string): string {
    const ellipsis = this.forms.get("ellipsis");
    // `...` before a name or bracket is spread syntax, not an ellipsis.
    if (ellipsis === "\u2026") text = text.replace(/\.\.\.(?![\w$([{])/g, "\u2026");
    else if (ellipsis === "...") text = text.replace(/\u2026/g, "...");
    let out = "";
    let previous = before;
    for (const char of text) {
      let c = char;
      const key = classOf(char);
      const form = key && key !== "ellipsis" ? this.forms.get(key) : undefined;
      if (form !== undefined) c = styled(key!, form, previous);
      out += c;
      previous = c;
    }
    if (this.nfd) return out.normalize("NFD");
    if (this.nfc) return out.normalize("NFC");
    return out;
  }
}

/** The character class a fold maps together: double quotes, single quotes, dashes, ellipsis. */
function classOf(char: string): string | undefined {
  if (/^["\u201C\u201D\u201E\u201F]$/.test(char)) return "double";
  if (/^['\u2018\u2019\u201A\u201B]$/.test(char)) return "single";
  if (char === "..." || char === "\u2026") return "ellipsis";
  if (/^[\u2013\u2014]$/.test(char)) return "dash";
  return undefined;
}

/** The file's form of a class, curly quotes turned by position (opening after a space or bracket). */
function styled(key: string, form: string, previous: string): string {
  const opening = previous === "" || /[\s([{\u2014\u2013-]$/.test(previous);
  if (key === "double" && /[\u201C\u201D]/.test(form)) return opening ? "\u201C" : "\u201D";
  if (key === "single" && /[\u2018\u2019]/.test(form)) return opening ? "\u2018" : "\u2019";
  return form;
}

/**
 * `replacement` with every stretch kept from `search` written as `file` has it. `search` and `file`
 * must be the two sides of one match (equal once normalised); `conventions` gathers what they teach.
 */
export function mapReplacement(search: string, file: string, replacement: string, conventions: Conventions): string {
  if (search === file && conventions.isEmpty()) return replacement;
  const s = tokenize(search);
  const chunks = alignChunks(s, tokenize(file), conventions);
  const r = tokenize(replacement);
  // For each search token: the replacement token index that keeps it (undefined when R dropped it).
  const kept = new Array<number | undefined>(s.length);
  let si = 0;
  let ri = 0;
  for (const part of diffArrays(s, r)) {
    const n = part.value.length;
    if (part.added) ri += n;
    else if (part.removed) si += n;
    else for (let k = 0; k < n; k++) kept[si++] = ri++;
  }
  // Replacement tokens replaced by a file stretch (first token gets the file text, the rest nothing).
  const substitute = new Map<number, string>();
  const covered = new Set<number>();
  const insertBefore = new Map<number, string>();
  for (const chunk of chunks) {
    if (chunk.from === chunk.to) {
      // The file has something the search lacks here (a zero-width character): kept next to the
      // neighbour the model kept (after the left one, else before the right one).
      const left = chunk.from > 0 ? kept[chunk.from - 1] : -1;
      const right = chunk.to < s.length ? kept[chunk.to] : r.length;
      const before = left !== undefined ? left + 1 : right;
      if (before !== undefined) insertBefore.set(before, (insertBefore.get(before) ?? "") + chunk.file);
      continue;
    }
    const at = kept[chunk.from];
    let whole = at !== undefined;
    for (let k = chunk.from; k < chunk.to && whole; k++) whole = kept[k] === at! + (k - chunk.from);
    if (!whole) continue;
    substitute.set(at!, chunk.file);
    for (let k = at! + 1; k < at! + (chunk.to - chunk.from); k++) covered.add(k);
  }
  const fromSearch = new Set(kept.filter((k): k is number => k !== undefined));
  let out = "";
  let added = "";
  const flushAdded = (): void => {
    out += added === "" ? "" : conventions.apply(added, out);
    added = "";
  };
  for (let k = 0; k <= r.length; k++) {
    const inserted = insertBefore.get(k);
    if (inserted !== undefined) {
      flushAdded();
      out += inserted;
    }
    if (k === r.length) break;
    if (covered.has(k)) continue;
    const sub = substitute.get(k);
    if (sub === undefined && !fromSearch.has(k)) {
      added += r[k]!;
      continue;
    }
    flushAdded();
    out += sub ?? r[k]!;
  }
  flushAdded();
  return out;
}

/** One token in canonical form (whitespace as one space), for aligning search and file. */
function canonToken(token: string): string {
  return foldPunctuation(stripInvisible(token)).normalize("NFC").replace(/\s+/g, " ");
}

/**
 * The stretches where search and file differ only by normalisation (others, typos, are not mapped).
 * Tokens are aligned on their canonical forms, so `-` pairs with `—` and a space with a tab even where
 * a raw alignment would pair the space with a later one.
 */
function alignChunks(s: string[], f: string[], conventions: Conventions): Chunk[] {
  const chunks: Chunk[] = [];
  let si = 0;
  let fi = 0;
  let pending: { from: number; search: string; file: string } | undefined;
  const add = (from: number, to: number, search: string, file: string): void => {
    if (!equivalent(search, file)) return;
    chunks.push({ from, to, file });
    conventions.learn(search, file);
  };
  const flush = (): void => {
    if (pending) add(pending.from, si, pending.search, pending.file);
    pending = undefined;
  };
  for (const part of diffArrays(s, f, { comparator: (a, b) => a === b || canonToken(a) === canonToken(b) })) {
    const n = part.value.length;
    if (!part.added && !part.removed) {
      flush();
      for (let k = 0; k < n; k++, si++, fi++) if (s[si] !== f[fi]) add(si, si + 1, s[si]!, f[fi]!);
      continue;
    }
    pending ??= { from: si, search: "", file: "" };
    if (part.removed) {
      pending.search += s.slice(si, si + n).join("");
      si += n;
    } else {
      pending.file += f.slice(fi, fi + n).join("");
      fi += n;
    }
  }
  flush();
  return chunks;
}

/** Records in `conventions` what one matched pair of search and file text teaches. */
export function learnConventions(search: string, file: string, conventions: Conventions): void {
  if (search !== file) alignChunks(tokenize(search), tokenize(file), conventions);
}
