// Property: when a search matches only after normalisation, every character the replacement kept
// from the search is written as the file has it; only the model's new words are new.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { replace } from "../index.js";
import { foldPunctuation } from "../text/normalize.js";

const typographic = ["“", "”", "‘", "’", "—", "–", "\u00a0", "\u200b", "é", "e\u0301", "\t"];
const plain = ["a", "b", "c", "x", "(", ")", "=", " ", "1", "2"];
const lineArb = fc
  .array(fc.constantFrom(...plain, ...typographic), { minLength: 3, maxLength: 20 })
  .map((chars) => `k${chars.join("")}z`);

/** How a model types a line it saw: ASCII punctuation, no zero-width characters, composed accents, spaces for tabs. */
function asTyped(line: string): string {
  return foldPunctuation(line.replace(/\u200b/g, "")).replace(/\t/g, " ").normalize("NFC");
}

describe("replacements in the file's terms (property)", () => {
  it("keeps every untouched character of the matched line byte for byte", () => {
    fc.assert(
      fc.property(fc.uniqueArray(lineArb, { minLength: 2, maxLength: 6, selector: asTyped }), fc.nat(), (lines, pick) => {
        const target = lines[pick % lines.length]!;
        const file = `${lines.join("\n")}\n`;
        const search = asTyped(target);
        // Another line that reads the same once whitespace is collapsed makes the search ambiguous.
        const collapsed = (l: string): string => asTyped(l).replace(/\s+/g, " ");
        fc.pre(search !== target && !lines.some((l) => l !== target && collapsed(l).includes(collapsed(search))));
        const result = replace(file, search, `${search} added`);
        expect(result.content).toBe(file.replace(`${target}\n`, `${target} added\n`));
      }),
      { numRuns: 300 },
    );
  });
});
