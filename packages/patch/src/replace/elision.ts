// "Lazy" edits: a model rewrites a block and puts `// ... existing code ...` where the lines it did
// not want to repeat were. Written as given, the marker replaces the real lines and the file loses
// them. A marker line — a comment holding nothing but an ellipsis and a few words about the code
// left out, or a bare `…` — that stands where oldString had real lines is refused, naming the line.
// Text that merely contains `...` (a string, a spread, Python's `...` body that was already there)
// is written as usual: only whole marker lines count, and only where they replace lines.
import { ReplaceError } from "../errors.js";
import { diffLineArrays } from "../diff/line-diff.js";

// Comment openers and closers of the usual languages: //, #, --, ;, %, /* */, <!-- -->, {/* */}, (* *).
const OPEN = String.raw`(?:\/\/+|#+|--|;+|%+|\/\*+|<!--|\{\s*\/\*+|\(\*)?`;
const CLOSE = String.raw`(?:\*+\/\s*\}?|-->|\*\))?`;
const ELLIPSIS = String.raw`(?:\.{3,}|…+)`;
// The words models put around the ellipsis: "existing code", "rest of the function unchanged", "keep …".
const WORDS = String.raw`[\p{L}\p{N}\s,'’:()\-_/]{0,80}`;
const MARKER = new RegExp(String.raw`^\s*${OPEN}\s*(?:${WORDS}\s*)?${ELLIPSIS}\s*(?:${WORDS}\s*)?(?:${ELLIPSIS}\s*)?${CLOSE}\s*$`, "u");

const OPENER = new RegExp(String.raw`^\s*${OPEN}\s*`, "u");
const BARE = new RegExp(String.raw`^\s*${ELLIPSIS}\s*$`, "u");
// A comment ending in an ellipsis is a marker only when it talks about code left out; `// Wait...`
// or `# see the docs...` is a comment.
const ABOUT_ELIDED =
  /\b(?:existing|rest|unchanged|same|omitted|remaining|other|others|previous|original|keep|kept|more|etc|code|lines|implementation|body|methods|functions|fields|content|as before|before|above|below|here)\b/iu;

/** True for a line that only stands for elided code (a bare `...` counts: whether it replaced lines decides). */
export function isElisionMarker(line: string): boolean {
  if (!MARKER.test(line)) return false;
  if (BARE.test(line)) return true;
  const opener = OPENER.exec(line)![0];
  // Without a comment opener, words and an ellipsis are prose or code (`rest...`).
  if (opener.trim() === "") return false;
  const text = line.slice(opener.length);
  return new RegExp(String.raw`^${ELLIPSIS}`, "u").test(text) || ABOUT_ELIDED.test(text);
}

/**
 * Throws `elision` when a marker line of `replacement` takes the place of non-blank lines of
 * `search` (both "\n"-separated): the file would lose the lines the marker stands for.
 */
export function refuseElision(search: string, replacement: string): void {
  const oldLines = search.replace(/\n$/, "").split("\n");
  const newLines = replacement.replace(/\n$/, "").split("\n");
  if (!newLines.some(isElisionMarker)) return;
  let i = 0;
  let j = 0;
  const script = diffLineArrays(oldLines.map((l) => l.trim()), newLines.map((l) => l.trim()));
  for (let r = 0; r < script.length; r++) {
    const run = script[r]!;
    if (run.type === "equal") {
      i += run.count;
      j += run.count;
      continue;
    }
    // One changed stretch: the runs up to the next equal run.
    let removed = 0;
    let added = 0;
    for (; r < script.length && script[r]!.type !== "equal"; r++) {
      if (script[r]!.type === "delete") removed += script[r]!.count;
      else added += script[r]!.count;
    }
    r--;
    const lost = oldLines.slice(i, i + removed).filter((l) => l.trim() !== "" && !isElisionMarker(l));
    const marker = newLines.slice(j, j + added).findIndex(isElisionMarker);
    if (marker !== -1 && lost.length > 0) {
      const at = j + marker;
      throw new ReplaceError(
        `newString line ${at + 1} (${JSON.stringify(newLines[at]!.trim())}) stands for code left out, where oldString has ${lost.length} line${lost.length > 1 ? "s" : ""} (starting ${JSON.stringify(lost[0]!.trim())}); written as given, the file would lose them. Nothing was changed. Write those lines out in newString, or narrow oldString to the lines you change.`,
        { code: "elision" },
      );
    }
    i += removed;
    j += added;
  }
}
