// A match must not cut a character in two: not between the halves of a surrogate pair, and not
// between a base character and the combining marks that follow it (`e` + U+0301 is one `é`).
// Replacing `cafe` inside `cafe\u0301` would leave the accent on whatever is written there.
import type { Candidate } from "./candidate.js";

const MARK = /^\p{M}/u;

/** True when `offset` falls inside a character of `text`. */
export function splitsCharacter(text: string, offset: number): boolean {
  if (offset <= 0 || offset >= text.length) return false;
  const here = text.charCodeAt(offset);
  const before = text.charCodeAt(offset - 1);
  if (here >= 0xdc00 && here <= 0xdfff && before >= 0xd800 && before <= 0xdbff) return true;
  return MARK.test(text.slice(offset, offset + 2));
}

/** The candidates that start and end on character boundaries. */
export function onCharacterBoundaries(text: string, found: Candidate[]): Candidate[] {
  return found.filter((c) => !splitsCharacter(text, c.start) && !splitsCharacter(text, c.end));
}
