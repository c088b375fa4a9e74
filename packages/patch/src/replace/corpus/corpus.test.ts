// Runs the edit-accuracy corpus: every case must give exactly the expected file or the expected refusal.
import { describe, expect, it } from "vitest";
import { ReplaceError } from "../../errors.js";
import { replace } from "../replace.js";
import { EDIT_CORPUS } from "./edit-corpus.js";

describe("edit-accuracy corpus", () => {
  it("has at least 60 cases with distinct names", () => {
    expect(EDIT_CORPUS.length).toBeGreaterThanOrEqual(60);
    expect(new Set(EDIT_CORPUS.map((c) => c.name)).size).toBe(EDIT_CORPUS.length);
  });

  for (const c of EDIT_CORPUS) {
    it(c.name, () => {
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
