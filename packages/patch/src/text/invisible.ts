// Zero-width characters: invisible in an editor and in a model's view of a file, so a model never
// types them. Matching folds them away; the file keeps them; a near-miss hint spells them out so the
// model can see why its copy differs.

/** U+200B–U+200D (zero-width space, non-joiner, joiner), U+2060 (word joiner), U+FEFF (BOM inside a line). */
export const INVISIBLE = /[\u200B-\u200D\u2060\uFEFF]/g;
const HAS_INVISIBLE = /[\u200B-\u200D\u2060\uFEFF]/;

/** The text without zero-width characters. */
export function stripInvisible(text: string): string {
  return HAS_INVISIBLE.test(text) ? text.replace(INVISIBLE, "") : text;
}

/** True for one zero-width character. */
export function isInvisible(char: string): boolean {
  return char.length === 1 && HAS_INVISIBLE.test(char);
}

/** The text with each zero-width character written as a visible `\uXXXX` escape. */
export function showInvisible(text: string): string {
  return HAS_INVISIBLE.test(text)
    ? text.replace(INVISIBLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)
    : text;
}
