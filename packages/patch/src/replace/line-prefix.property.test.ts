// Property: a window copied from the read tool's numbered view, in oldString and newString, edits
// exactly that window and writes no prefix; it is never applied elsewhere.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ReplaceError, replace } from "../index.js";
import { numbered } from "./corpus/helpers.js";

const lineArb = fc.array(fc.constantFrom("a", "b", "1", "2", "\t", " ", ":", "|"), { minLength: 1, maxLength: 8 }).map((c) => c.join(""));

describe("line-number prefixes (property)", () => {
  it("edits the copied window or refuses, never another place", () => {
    fc.assert(
      fc.property(fc.array(lineArb, { minLength: 2, maxLength: 15 }), fc.nat(), fc.nat(), (lines, from, size) => {
        const start = from % lines.length;
        const window = lines.slice(start, start + 1 + (size % 3));
        const file = `${lines.join("\n")}\n`;
        const search = numbered(start + 1, ...window);
        const replacement = numbered(start + 1, ...window.map((l) => `${l}#`));
        const expected = `${[...lines.slice(0, start), ...window.map((l) => `${l}#`), ...lines.slice(start + window.length)].join("\n")}\n`;
        fc.pre(!file.includes(search) && window.some((l) => l.trim() !== ""));
        try {
          expect(replace(file, search, replacement).content).toBe(expected);
        } catch (error) {
          expect(error).toBeInstanceOf(ReplaceError);
          expect(["multiple", "indentation_mismatch"]).toContain((error as ReplaceError).code);
        }
      }),
      { numRuns: 400 },
    );
  });

  const views: Record<string, (first: number, lines: string[]) => string> = {
    "Codex's L12: ": (first, lines) => lines.map((l, k) => `L${first + k}: ${l}`).join("\n"),
    "grep -n's path:12:": (first, lines) => lines.map((l, k) => `src/app.ts:${first + k}:${l}`).join("\n"),
  };
  for (const [name, view] of Object.entries(views)) {
    it(`edits the window copied from ${name} view or refuses, never another place`, () => {
      fc.assert(
        fc.property(fc.array(lineArb, { minLength: 2, maxLength: 15 }), fc.nat(), fc.nat(), (lines, from, size) => {
          const start = from % lines.length;
          const window = lines.slice(start, start + 1 + (size % 3));
          const file = `${lines.join("\n")}\n`;
          const search = view(start + 1, window);
          const expected = `${[...lines.slice(0, start), ...window.map((l) => `${l}#`), ...lines.slice(start + window.length)].join("\n")}\n`;
          fc.pre(!file.includes(search) && window.some((l) => l.trim() !== ""));
          try {
            expect(replace(file, search, view(start + 1, window.map((l) => `${l}#`))).content).toBe(expected);
          } catch (error) {
            expect(error).toBeInstanceOf(ReplaceError);
            expect(["multiple", "indentation_mismatch"]).toContain((error as ReplaceError).code);
          }
        }),
        { numRuns: 300 },
      );
    });
  }
});
