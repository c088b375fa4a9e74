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
  /** The model typed ASCII where the file has typographic characters (a dash, a quote, an odd space). */
  private typedPlain = false;

  /** `fileText`: the whole file, to tell a prose file's typography from a program's. */
  constructor(fileText = "") {
    this.fileText = fileText;
  }

  /** True while nothing was learned (added text is then written as typed). */
  isEmpty(): boolean {
    return this.forms.size === 0 && !this.nfd && !this.nfc && !this.typedPlain;
  }

  /** Records the characters of one normalised stretch (search form → file form). */
  learn(search: string, file: string): void {
    if (search !== file && foldPunctuation(file) !== file && foldPunctuation(search) === search) this.typedPlain = true;
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

  /**
   * The form a quote class takes in added text: the form the match showed, or — once the match showed
   * the model typing ASCII for the file's typography — the file's own quotes where it never writes
   * the plain one (a prose file's quotes, even those the matched lines did not contain).
   */
  private formOf(key: string): string | undefined {
    const form = this.forms.get(key);
    if (form !== undefined || (key !== "double" && key !== "single") || !this.typedPlain) return form;
    const pair = this.pairOf(key);
    return pair && !this.fileText.includes(PLAIN[key]!) ? pair.open : undefined;
  }

  /** The file's opening and closing quotes of a class, learned from the whole file (cached). */
  pairOf(key: string): QuotePair | undefined {
    if (!this.pairs.has(key)) this.pairs.set(key, learnPair(this.fileText, key));
    return this.pairs.get(key);
  }

  private readonly pairs = new Map<string, QuotePair | undefined>();

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
      const form = key && key !== "ellipsis" ? this.formOf(key) : undefined;
      if (form !== undefined) c = styled(key!, form, previous, this.pairOf(key!));
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
  if (/^["\u201C\u201D\u201E\u201F\u00AB\u00BB]$/.test(char)) return "double";
  if (/^['\u2018\u2019\u201A\u201B\u2039\u203A]$/.test(char)) return "single";
  if (char === "..." || char === "\u2026") return "ellipsis";
  if (/^[\u2013\u2014]$/.test(char)) return "dash";
  return undefined;
}

/** A locale's quotation marks as a file writes them: English “…”, German „…“, French « … », Swedish ”…”. */
export interface QuotePair {
  open: string;
  close: string;
  /** The space a file puts inside its quotes (French `« bonjour »`), or "". */
  inner: string;
}

const TYPOGRAPHIC: Record<string, RegExp> = { double: /[\u201C\u201D\u201E\u201F\u00AB\u00BB]/g, single: /[\u2018\u2019\u201A\u201B\u2039\u203A]/g };
/** What closes an opening mark when the file shows no closing one. */
const CLOSER: Record<string, string> = { "\u201C": "\u201D", "\u201E": "\u201C", "\u00AB": "\u00BB", "\u00BB": "\u00AB", "\u2018": "\u2019", "\u201A": "\u2018", "\u2039": "\u203A", "\u203A": "\u2039", "\u201D": "\u201D", "\u2019": "\u2019" };
const INNER_SPACE = /[ \u00A0\u202F\u2009]/;

/**
 * The file's quotes of a class by position: a mark after a space, bracket or line start that precedes
 * text opens; a mark after text that precedes a space, punctuation or line end closes (an apostrophe
 * inside a word is neither). The most frequent of each wins; guillemets may have a space inside.
 */
function learnPair(text: string, key: string): QuotePair | undefined {
  const opens = new Map<string, number>();
  const closes = new Map<string, number>();
  const inner = new Map<string, number>();
  // Openings seen, of which `inner` counts those followed by a space.
  let seen = 0;
  const re = new RegExp(TYPOGRAPHIC[key]!.source, "g");
  for (const m of text.matchAll(re)) {
    const mark = m[0];
    const before = text[m.index - 1] ?? "\n";
    const after = text[m.index + 1] ?? "\n";
    if (/[\u00AB\u00BB\u2039\u203A]/.test(mark) && INNER_SPACE.test(after) && /\s/.test(before)) {
      // French spacing (`« bonjour »`): spaces on both sides, so the mark's own direction decides.
      if (/[\u00AB\u2039]/.test(mark)) {
        opens.set(mark, (opens.get(mark) ?? 0) + 1);
        inner.set(after, (inner.get(after) ?? 0) + 1);
        seen++;
      } else closes.set(mark, (closes.get(mark) ?? 0) + 1);
    } else if (/[\s([{\u2014\u2013-]/.test(before) && !/\s/.test(after)) {
      opens.set(mark, (opens.get(mark) ?? 0) + 1);
      seen++;
    } else if (!/\s/.test(before) && !/[\p{L}\p{N}]/u.test(after)) closes.set(mark, (closes.get(mark) ?? 0) + 1);
  }
  const top = (counts: Map<string, number>): string | undefined => [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
  const open = top(opens);
  const close = top(closes);
  if (!open && !close) return undefined;
  const opening = open ?? (close === "\u201C" ? "\u201E" : close === "\u2018" ? "\u201A" : (CLOSER[close!] ?? close!));
  const spaced = top(inner);
  const innerSpace = spaced !== undefined && inner.get(spaced)! * 2 > seen ? spaced : "";
  return { open: opening, close: close ?? CLOSER[opening] ?? opening, inner: innerSpace };
}

/** The file's form of a class, quotes turned by position (opening after a space or bracket) into the file's pair. */
function styled(key: string, form: string, previous: string, pair?: QuotePair): string {
  const opening = previous === "" || /[\s([{\u2014\u2013-]$/.test(previous);
  if ((key === "double" || key === "single") && pair && form !== PLAIN[key]) return opening ? pair.open + pair.inner : pair.inner + pair.close;
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
