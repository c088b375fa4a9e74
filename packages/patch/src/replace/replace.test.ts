import { describe, expect, it } from "vitest";
import { ReplaceError, replace } from "../index.js";
import { refusal } from "./expect-refusal.js";
import { MatchContext, type Search } from "./candidate.js";
import { MATCHERS } from "./matchers/index.js";
import { makeView } from "./view.js";


describe("replace", () => {
  it("says which matcher fired and where", () => {
    expect(replace("a\nb\nc\n", "c", "C")).toEqual({ content: "a\nb\nC\n", matcher: "exact", line: 3, lines: [3] });
    expect(replace("x\n  y\nx\n  y\n", "y", "z", { replaceAll: true })).toMatchObject({ lines: [2, 4], line: 2 });
  });

  it("explains a miss and points at the closest region", () => {
    const file = Array.from({ length: 30 }, (_, i) => `line ${i}`).join("\n") + "\nfunction add(a, b) {\n  return a + b;\n}\n";
    const error = refusal(() => replace(file, "function add(a, c) {\n  return a + c;\n}", "x"));
    expect(error.code).toBe("not_found");
    expect(error.nearMiss).toMatchObject({ startLine: 31, endLine: 33 });
    expect(error.nearMiss!.similarity).toBeGreaterThan(0.8);
    expect(error.nearMiss!.text).toBe("function add(a, b) {\n  return a + b;\n}");
    expect(error.message).toMatch(/closest text is at lines 31-33/);
    expect(refusal(() => replace("alpha\n", "zzzzzzzzzzzzzz", "x")).nearMiss).toBeUndefined();
  });

  it("lists every match of an ambiguous search", () => {
    const error = refusal(() => replace("a\nx\nb\nx\nc\nx\n", "x", "y"));
    expect(error.code).toBe("multiple");
    expect(error.matches).toEqual([2, 4, 6]);
    expect(error.message).toMatch(/Found 3 matches.*lines 2, 4, 6/);
  });

  it("refuses no-op edits", () => {
    expect(refusal(() => replace("a\n", "a", "a")).code).toBe("no_change");
    expect(refusal(() => replace("a\n", "", "b")).code).toBe("empty_search");
  });

  it("keeps a mixed-ending file's other lines as they are", () => {
    expect(replace("a\r\nb\nc\r\n", "b", "B")).toMatchObject({ content: "a\r\nB\nc\r\n" });
  });

  it("never runs a matcher longer than 100 ms on 10,000 lines with a 50-line search that is not there", () => {
    // Worst case for the anchored matchers: every block of the file starts and ends like the search.
    const fileLines: string[] = [];
    for (let i = 0; fileLines.length < 10_000; i++) {
      fileLines.push("function handler() {");
      for (let k = 0; k < 48; k++) fileLines.push(`  const value${k} = compute(${i}, ${k}, "${"x".repeat(k % 7)}");`);
      fileLines.push("}");
    }
    const text = fileLines.join("\n") + "\n";
    const searchLines = ["function handler() {", ...Array.from({ length: 48 }, (_, k) => `  let other${k} = different(${k});`), "}"];
    const search: Search = { text: searchLines.join("\n"), lines: searchLines, trailingNewline: false, adapt: (s) => s };
    const ctx = new MatchContext(makeView(text), search);
    for (const matcher of MATCHERS) {
      // Best of three (after a warm-up run), so a busy machine does not fail the bound by itself.
      expect(matcher.find(ctx)).toEqual([]);
      const times = [0, 1, 2].map(() => {
        const start = performance.now();
        matcher.find(ctx);
        return performance.now() - start;
      });
      expect(Math.min(...times), matcher.name).toBeLessThan(100);
    }
    const start = performance.now();
    expect(refusal(() => replace(text, search.text, "x")).code).toBe("not_found");
    expect(performance.now() - start).toBeLessThan(1000);
  });
});
