// Property: a window of the file sent escaped one level too many (as JSON would write it, with or
// without real newlines) edits exactly that window, unescaped; it is never applied elsewhere.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ReplaceError, replace } from "../index.js";

const lineArb = fc.array(fc.constantFrom("a", "b", "x", "\t", '"', " ", "(", ")"), { minLength: 1, maxLength: 8 }).map((c) => `k${c.join("")}`);

/** One level of escaping, as a model double-escaping its tool input writes it; real newlines kept or escaped. */
function escape(text: string, newlines: boolean): string {
  const escaped = text.replace(/\\/g, "\\\\").replace(/\t/g, "\\t").replace(/"/g, '\\"');
  return newlines ? escaped.replace(/\n/g, "\\n") : escaped;
}

describe("escaped searches (property)", () => {
  it("edits the escaped window or refuses, never another place", () => {
    fc.assert(
      fc.property(fc.array(lineArb, { minLength: 1, maxLength: 10 }), fc.nat(), fc.nat(), fc.boolean(), (lines, from, size, newlines) => {
        const start = from % lines.length;
        const window = lines.slice(start, start + 1 + (size % 3));
        const file = `${lines.join("\n")}\n`;
        const search = escape(window.join("\n"), newlines);
        const replacement = escape(window.map((l) => `${l}"z"`).join("\n"), newlines);
        fc.pre(search !== window.join("\n"));
        const expected = `${[...lines.slice(0, start), ...window.map((l) => `${l}"z"`), ...lines.slice(start + window.length)].join("\n")}\n`;
        try {
          expect(replace(file, search, replacement).content).toBe(expected);
        } catch (error) {
          expect(error).toBeInstanceOf(ReplaceError);
          expect((error as ReplaceError).code).toBe("multiple");
        }
      }),
      { numRuns: 300 },
    );
  });
});
