/**
 * The general wildcard matcher: a pattern compiled into literal pieces separated by `*` (any text)
 * and `**​/` (any number of whole folders), matched left to right, each piece at its leftmost possible
 * place. Leftmost is always right here because whatever follows a piece starts with a wildcard that
 * can absorb the text skipped, so the matcher never returns to an earlier choice: the time is linear
 * in the text: plain pieces are found with `String.indexOf`, pieces holding `?` or `\` with a
 * bit-parallel (shift-and) scan. No regular expression, so no catastrophic backtracking whatever the
 * number of stars.
 */

/** One piece of a pattern between wildcards; `?` matches one character, `\` matches `\` or `/`. */
interface Piece {
  text: string;
  /** No `?` or `\`: compared with string methods. */
  plain: boolean;
  /** For non-plain pieces: bit masks for a one-pass (shift-and) search. */
  bits?: { ascii: Uint32Array; other: Map<number, Uint32Array>; wild: Uint32Array; words: number; finalWord: number; finalBit: number };
}

/** What comes before a piece: nothing (the pattern's start), `*`, or `**​/` (folders). */
type Gap = "start" | "star" | "dirs";

/** A compiled pattern: pieces with the gap before each, and what may follow the last one. */
export interface Segments {
  pieces: { gap: Gap; piece: Piece }[];
  /** What follows the last piece: nothing, `*`, or `**​/` (then the text must end at a folder boundary). */
  end: Gap;
}

const isSeparator = (c: string | undefined) => c === "/" || c === "\\";

/** Splits a pattern (without its optional tails) into pieces and gaps. */
export function compileSegments(pattern: string): Segments {
  const pieces: Segments["pieces"] = [];
  let gap: Gap = "start";
  let literal = "";
  let i = 0;
  const flush = () => {
    if (literal !== "") pieces.push({ gap, piece: piece(literal) });
    literal = "";
  };
  while (i < pattern.length) {
    const c = pattern[i]!;
    if (c !== "*") {
      literal += c;
      i++;
      continue;
    }
    let run = 0;
    while (pattern[i + run] === "*") run++;
    // `**/` at the start or right after a separator stands for zero or more whole folders.
    const atBoundary: boolean = literal === "" ? gap === "start" || gap === "dirs" : isSeparator(literal.at(-1));
    const folders: boolean = run >= 2 && atBoundary && isSeparator(pattern[i + run]);
    const afterWildcard = literal === "";
    flush();
    // Adjacent wildcards merge: `*` next to anything is `*`; `**/**/` is still folders.
    if (afterWildcard && gap !== "start") gap = gap === "dirs" && folders ? "dirs" : "star";
    else gap = folders ? "dirs" : "star";
    i += run + (folders ? 1 : 0);
  }
  if (literal !== "") {
    pieces.push({ gap, piece: piece(literal) });
    return { pieces, end: "start" };
  }
  return { pieces, end: gap };
}

function piece(text: string): Piece {
  const plain = !text.includes("?") && !text.includes("\\");
  return plain ? { text, plain } : { text, plain, bits: shiftAndMasks(text) };
}

/** Bit `k` (of 32-bit words) set where piece character `k` accepts the input character. */
function shiftAndMasks(text: string): NonNullable<Piece["bits"]> {
  const words = Math.ceil(text.length / 32);
  // Per character code, `words` mask words: a flat table for ASCII, a map for the rest.
  const ascii = new Uint32Array(128 * words);
  const other = new Map<number, Uint32Array>();
  const wild = new Uint32Array(words);
  for (let k = 0; k < text.length; k++) {
    const c = text.charCodeAt(k);
    const word = k >>> 5;
    const bit = (1 << (k & 31)) >>> 0;
    if (c === QUESTION) {
      wild[word]! |= bit;
      continue;
    }
    // `\` also accepts `/`.
    for (const code of c === BACKSLASH ? [BACKSLASH, SLASH] : [c]) {
      if (code < 128) ascii[code * words + word]! |= bit;
      else {
        let mask = other.get(code);
        if (!mask) other.set(code, (mask = new Uint32Array(words)));
        mask[word]! |= bit;
      }
    }
  }
  for (let code = 0; code < 128; code++) for (let w = 0; w < words; w++) ascii[code * words + w]! |= wild[w]!;
  for (const mask of other.values()) for (let w = 0; w < words; w++) mask[w]! |= wild[w]!;
  return { ascii, other, wild, words, finalWord: (text.length - 1) >>> 5, finalBit: (1 << ((text.length - 1) & 31)) >>> 0 };
}

const QUESTION = 63;
const BACKSLASH = 92;
const SLASH = 47;

/**
 * One pass over the text from `from` (shift-and, one 32-bit word per 32 piece characters): each
 * place where the piece ends is tested with `ok`. Time: text length × ⌈piece length / 32⌉.
 */
function shiftAndFind(piece: Piece, text: string, from: number, ok: (at: number) => boolean): number {
  const { ascii, other, wild, words, finalWord, finalBit } = piece.bits!;
  const length = piece.text.length;
  if (words === 1) {
    let state = 0;
    for (let i = from; i < text.length; i++) {
      const c = text.charCodeAt(i);
      const accept = c < 128 ? ascii[c]! : (other.get(c)?.[0] ?? wild[0]!);
      state = ((state << 1) | 1) & accept;
      if (state & finalBit && ok(i - length + 1)) return i - length + 1;
    }
    return -1;
  }
  const state = new Uint32Array(words);
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const mask = c < 128 ? undefined : other.get(c);
    let carry = 1; // a match may start at every position
    for (let w = 0; w < words; w++) {
      const current = state[w]!;
      const accept = c < 128 ? ascii[c * words + w]! : (mask?.[w] ?? wild[w]!);
      state[w] = (((current << 1) | carry) & accept) >>> 0;
      carry = current >>> 31;
    }
    if (state[finalWord]! & finalBit && ok(i - length + 1)) return i - length + 1;
  }
  return -1;
}

/** Whether `piece` matches `text` at `at`. */
function matchesAt(piece: Piece, text: string, at: number): boolean {
  if (at < 0 || at + piece.text.length > text.length) return false;
  if (piece.plain) return text.startsWith(piece.text, at);
  for (let k = 0; k < piece.text.length; k++) {
    const p = piece.text[k]!;
    const t = text[at + k]!;
    if (p === t || p === "?" || (p === "\\" && t === "/")) continue;
    return false;
  }
  return true;
}

/** The leftmost place at or after `from` where `piece` matches and `ok` accepts, or -1. */
function findFrom(piece: Piece, text: string, from: number, ok: (at: number) => boolean): number {
  if (piece.plain) {
    for (let at = text.indexOf(piece.text, from); at >= 0; at = text.indexOf(piece.text, at + 1)) if (ok(at)) return at;
    return -1;
  }
  return shiftAndFind(piece, text, from, ok);
}

/** Whether the whole `text` matches the compiled pattern. */
export function matchSegments(segments: Segments, text: string): boolean {
  const { pieces, end } = segments;
  if (pieces.length === 0) return end === "start" ? text === "" : end === "star" || text === "" || isSeparator(text.at(-1));
  let pos = 0;
  for (let k = 0; k < pieces.length; k++) {
    const { gap, piece } = pieces[k]!;
    const last = k === pieces.length - 1 && end === "start";
    const folderStart = (at: number) => at === pos || isSeparator(text[at - 1]);
    if (gap === "start") {
      if (!matchesAt(piece, text, 0)) return false;
      pos = piece.text.length;
      if (last) return pos === text.length;
      continue;
    }
    if (last) {
      // The final piece must end the text: only one place to try.
      const at = text.length - piece.text.length;
      return at >= pos && matchesAt(piece, text, at) && (gap === "star" || folderStart(at));
    }
    const at = findFrom(piece, text, pos, gap === "star" ? () => true : folderStart);
    if (at < 0) return false;
    pos = at + piece.text.length;
  }
  if (end === "star") return true;
  return pos === text.length || isSeparator(text.at(-1));
}
