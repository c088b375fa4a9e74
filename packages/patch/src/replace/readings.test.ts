// The readings of an edit and how the replacement is written, on the bad inputs the issue lists.
import { describe, expect, it } from "vitest";
import { ReplaceError, replace } from "../index.js";
import { L, numbered } from "./corpus/helpers.js";
import { refusal } from "./expect-refusal.js";

const read = numbered;

describe("line-number prefixes", () => {
  const file = L("a = 1", "b = 2", "c = 3");

  it("strips the read tool's prefixes from both strings and says so", () => {
    const result = replace(file, read(2, "b = 2", "c = 3"), read(2, "b = 20", "c = 3"));
    expect(result.content).toBe(L("a = 1", "b = 20", "c = 3"));
    expect(result.lineNumbersStripped).toBe(true);
  });

  it("never writes a prefix of another style from newString", () => {
    expect(replace(file, read(2, "b = 2"), "2→b = 22").content).toBe(L("a = 1", "b = 22", "c = 3"));
  });

  it("refuses a prefixed newString for an unprefixed oldString, saying why", () => {
    const error = refusal(() => replace(file, "b = 2", read(2, "b = 5")));
    expect(error.code).toBe("line_number_prefix");
    expect(error.message).toMatch(/newString .*line numbers.*oldString does not/);
    expect(replace(file, "b = 2", "b = 5").content).toBe(L("a = 1", "b = 5", "c = 3"));
  });

  it("explains a search mixing prefixed and unprefixed lines", () => {
    const error = refusal(() => replace(file, `${read(1, "a = 1")}\nb = 2`, "x"));
    expect(error.code).toBe("not_found");
    expect(error.message).toMatch(/1 of the 2 lines of oldString start with a line number/);
  });

  it("matches prefix-like real content as it is", () => {
    const list = L("1: one", "2: two");
    expect(replace(list, "1: one\n2: two", "1: uno\n2: two")).toMatchObject({ content: L("1: uno", "2: two"), matcher: "exact" });
  });
});

describe("the replacement in the file's characters", () => {
  it("keeps curly quotes, dashes and NBSP the model typed as ASCII", () => {
    const file = L("say(“a”) — b\u00a0c");
    expect(replace(file, 'say("a") - b c', 'say("a") - b d').content).toBe(L("say(“a”) — b\u00a0d"));
  });

  it("keeps zero-width characters and shows them in a near miss", () => {
    expect(replace(L("x\u200by = 1"), "xy = 1", "xy = 2").content).toBe(L("x\u200by = 2"));
    const error = refusal(() => replace(L("const x\u200by = compute(1, 2);"), "const xy = compute(1, 3);", "x"));
    expect(error.code).toBe("not_found");
    expect(error.nearMiss?.text).toBe("const x\\u200by = compute(1, 2);");
    expect(error.message).toContain("x\\u200by");
  });

  it("unescapes the replacement when the search matched only unescaped, with or without real newlines", () => {
    expect(replace(L("a", "\tb"), "a\\n\\tb", "a\\n\\tc").content).toBe(L("a", "\tc"));
    expect(replace(L('f("x")', "g()"), 'f(\\"x\\")\ng()', 'f(\\"y\\")\ng()').content).toBe(L('f("y")', "g()"));
  });
});

describe("bad input", () => {
  it("does not cut a character at the edges of a match", () => {
    expect(refusal(() => replace(L("cafe\u0301"), "cafe", "tea")).code).toBe("not_found");
    expect(refusal(() => replace(L("\ud83d\ude00"), "\ud83d", "x")).code).toBe("not_found");
    expect(replace(L("a\ud800b"), "\ud800", "-").content).toBe(L("a-b"));
  });

  it("refuses exact text found twice even when one copy is a whole line", () => {
    const error = refusal(() => replace(L("stop", "stop now"), "stop", "halt"));
    expect(error.code).toBe("multiple");
    expect(error.matches).toEqual([1, 2]);
  });

  it("refuses a match whose nesting differs from the file's", () => {
    const file = L("if ok:", "    run()", "done()");
    const error = refusal(() => replace(file, "if ok:\n  run()\n  done()", "if ok:\n  run()\n  finish()"));
    expect(error.code).toBe("indentation_mismatch");
    expect(error.message).toMatch(/nests them differently/);
  });

  it("stays under 100 ms per call on 5,000 lines of near-identical blocks", () => {
    const lines: string[] = [];
    for (let i = 0; lines.length < 5000; i++) lines.push("def handler(req):", `    rid = ${i % 7}`, "    if not req.ok:", "        return fail(rid)", "    return ok(rid)", "");
    const file = L(...lines);
    const searches = [
      "def handler(req):\n    rid = 3\n    if not req.ok:",
      "def handler(req):\n    rid = 99\n    if not req.ok:\n        return fail(rid)\n    return ok(rid)",
      read(10, "def handler(req):", "    rid = 8", "    if req.ok:"),
      "def handler(req):\\n    rid = 9\\n    if not req.ok:",
      "def handler(req):\n  rid = 3\n  if not req.okay:\n    return fail(rid)\n  return ok(rid)",
    ];
    // CPU time of this process (tests run in forks), best of five: the bound is on the work a call
    // does, not on how many other processes share the machine's cores at that moment.
    const cpuMs = (fn: () => void): number => {
      const start = process.cpuUsage();
      fn();
      const used = process.cpuUsage(start);
      return (used.user + used.system) / 1000;
    };
    for (const search of searches) {
      const times = [0, 1, 2, 3, 4].map(() => cpuMs(() => expect(() => replace(file, search, "x")).toThrow(ReplaceError)));
      expect(Math.min(...times), search).toBeLessThan(100);
    }
  });
});

describe("the README's examples", () => {
  it.each([
    ["    x = 1\n", "     4\t    x = 1", "     4\t    x = 2", "    x = 2\n"],
    ["    if a:\n        b()\n", "if a:\n  b()", "if a:\n  b()\n  c()", "    if a:\n        b()\n        c()\n"],
    ["a\t= 1\n", "a = 1", "a = 2", "a\t= 2\n"],
    ["say “hi” — ok\n", 'say "hi" - ok', 'say "hi" - ok "bye"', "say “hi” — ok “bye”\n"],
    ["s = 'a'\n", "s = ‘a’", "s = ‘b’", "s = 'b'\n"],
    ["10\u00a0€\n", "10 €", "12 €", "12\u00a0€\n"],
    ["Rene\u0301\n", "Ren\u00e9", "Ren\u00e9 Martin", "Rene\u0301 Martin\n"],
    ["api\u200bKey = 1\n", "apiKey = 1", "apiKey = 2", "api\u200bKey = 2\n"],
    ['f("x")\n', 'f(\\"x\\")', 'f(\\"y\\")', 'f("y")\n'],
    ['f("x")\n', 'f(\\"x\\")', 'f("y\\n")', 'f("y\\n")\n'],
    ["    return 1\n", "return 1", "    return 2", "    return 2\n"],
  ])("%j: %j → %j", (file, search, replacement, expected) => {
    expect(replace(file, search, replacement).content).toBe(expected);
  });

  it("refuses the README's refusals", () => {
    expect(refusal(() => replace("x = 1\n", "x = 1", "     4\tx = 2")).code).toBe("line_number_prefix");
    expect(refusal(() => replace("if a:\n    b()\nc()\n", "if a:\n  b()\n  c()", "if a:\n  b()\n  d()")).code).toBe("indentation_mismatch");
    expect(refusal(() => replace("stop\nstop now\n", "stop", "go")).matches).toEqual([1, 2]);
    expect(refusal(() => replace("cafe\u0301\n", "cafe", "tea")).code).toBe("not_found");
  });
});
