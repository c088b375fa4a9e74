// Property (#18.1): a block written with another indentation unit or base (2 vs 4 spaces, tabs) is
// edited at the right nesting level in the file's own unit, whatever the shape of the block.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { replace } from "../index.js";

const UNITS = ["  ", "    ", "\t"];

/** Valid nesting: each line at most one level deeper than the one before. */
const levelsArb = fc.array(fc.nat(3), { minLength: 3, maxLength: 12 }).map((steps) => {
  const levels = [0];
  for (const s of steps.slice(1)) levels.push(Math.max(0, Math.min(levels[levels.length - 1]! + 1, s)));
  return levels;
});

function render(levels: readonly number[], unit: string, base: number, texts: readonly string[]): string[] {
  return levels.map((level, k) => unit.repeat(base + level) + texts[k]);
}

describe("indentation mapped by levels (property)", () => {
  it("puts an added line at its level in the file's unit", () => {
    fc.assert(
      fc.property(
        levelsArb,
        fc.constantFrom(...UNITS),
        fc.constantFrom(...UNITS),
        fc.nat(2),
        fc.nat(1),
        fc.nat(),
        fc.nat(),
        (levels, fileUnit, searchUnit, fileBase, searchBase, from, at) => {
          const texts = levels.map((_, k) => `step${k}(x)`);
          const fileLines = render(levels, fileUnit, fileBase, texts);
          const start = from % (levels.length - 1);
          const window = levels.slice(start, start + 2 + (from % 3));
          const shift = Math.min(...window);
          const rel = window.map((l) => l - shift);
          const windowTexts = texts.slice(start, start + window.length);
          const search = render(rel, searchUnit, searchBase, windowTexts);
          const j = at % window.length;
          const file = `${fileLines.join("\n")}\n`;
          // A search whose first line lost its indentation and whose other lines are the file's, as
          // written, is the file's text (a substring): its replacement is taken in the file's terms.
          const text = search.join("\n");
          fc.pre(!/^\S/.test(text) || !file.includes(text) || file.startsWith(text) || file.includes(`\n${text}`));
          const added = [...search.slice(0, j + 1), searchUnit.repeat(searchBase + rel[j]!) + "added()", ...search.slice(j + 1)];
          const result = replace(file, text, added.join("\n"));
          const expected = [...fileLines];
          expected.splice(start + j + 1, 0, fileUnit.repeat(fileBase + window[j]!) + "added()");
          expect(result.content).toBe(`${expected.join("\n")}\n`);
        },
      ),
      { numRuns: 400 },
    );
  });
});
