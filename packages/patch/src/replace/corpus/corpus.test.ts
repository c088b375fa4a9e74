// Runs the edit-accuracy corpus: every case must give exactly the expected file or the expected
// refusal, and no case may write a file other than expected (wrong-block replacements stay at 0).
import { describe, expect, it } from "vitest";
import { ReplaceError } from "../../errors.js";
import { replace } from "../replace.js";
import { EDIT_CORPUS } from "./edit-corpus.js";
import { scoreCorpus } from "./score.js";

describe("edit-accuracy corpus", () => {
  it("has at least 100 cases with distinct names, in every category", () => {
    expect(EDIT_CORPUS.length).toBeGreaterThanOrEqual(100);
    expect(new Set(EDIT_CORPUS.map((c) => c.name)).size).toBe(EDIT_CORPUS.length);
    const categories = new Set(EDIT_CORPUS.map((c) => c.category));
    for (const category of ["prefixes", "indentation", "whitespace", "escapes", "elisions", "near-duplicates", "unicode", "stale", "large"] as const) {
      expect(categories.has(category), category).toBe(true);
    }
  });

  it("makes no wrong-block replacement and gets every case right", () => {
    const score = [...scoreCorpus(EDIT_CORPUS).values()];
    expect(score.reduce((n, s) => n + s.wrong, 0)).toBe(0);
    expect(score.reduce((n, s) => n + s.right, 0)).toBe(EDIT_CORPUS.length);
  });

  for (const c of EDIT_CORPUS) {
    it(`${c.category}: ${c.name}`, () => {
      const run = () => replace(c.file, c.search, c.replacement, { replaceAll: c.replaceAll ?? false });
      if ("refuse" in c.expect) {
        let error: unknown;
        try {
          run();
        } catch (e) {
          error = e;
        }
        expect(error).toBeInstanceOf(ReplaceError);
        expect((error as ReplaceError).code).toBe(c.expect.refuse);
        if (c.expect.lines) expect((error as ReplaceError).matches).toEqual(c.expect.lines);
        return;
      }
      const result = run();
      expect(result.content).toBe(c.expect.content);
      if (c.expect.matcher) expect(result.matcher).toBe(c.expect.matcher);
      if (c.expect.line) expect(result.line).toBe(c.expect.line);
    });
  }
});
