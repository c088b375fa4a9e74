// Near-identical blocks: a search that fits more than one place is refused with every place, at
// whatever matcher level it first matches; one that fits one place exactly is applied there.
import { type EditCase, L, inCategory } from "./helpers.js";

const tests = L(
  "test('adds', () => {",
  "  const r = sum(1, 2);",
  "  expect(r).toBe(3);",
  "});",
  "",
  "test('adds negatives', () => {",
  "  const r = sum(-1, -2);",
  "  expect(r).toBe(-3);",
  "});",
  "",
  "test('adds zero', () => {",
  "  const r = sum(0, 2);",
  "  expect(r).toBe(2);",
  "});",
);

export const NEAR_DUPLICATE_CASES: EditCase[] = inCategory("near-duplicates", [
  {
    name: "exact text twice though one copy is a whole line",
    file: L("reset()", "  reset() // again", "done()"),
    search: "reset()",
    replacement: "clear()",
    expect: { refuse: "multiple", lines: [1, 2] },
  },
  {
    name: "the block whose numbers fit is the only one changed",
    file: tests,
    search: "  const r = sum(-1, -2);\n  expect(r).toBe(-3);",
    replacement: "  const r = sum(-1, -2);\n  expect(r).toBe(-3);\n  expect(r).toBeLessThan(0);",
    expect: { content: tests.replace("  expect(r).toBe(-3);\n", "  expect(r).toBe(-3);\n  expect(r).toBeLessThan(0);\n"), line: 7 },
  },
  {
    name: "closing lines shared by every test",
    file: tests,
    search: "  expect(r).toBe(3);\n});",
    replacement: "  expect(r).toBe(3);\n});\n",
    expect: { content: tests.replace("  expect(r).toBe(3);\n});", "  expect(r).toBe(3);\n});\n"), line: 3 },
  },
  {
    name: "same line with other trailing whitespace in two places",
    file: L("if (a) {", "  go();\t", "}", "if (b) {", "  go(); ", "}"),
    search: "  go();",
    replacement: "  run();",
    expect: { refuse: "multiple", lines: [2, 5] },
  },
  {
    name: "line-trimmed match in two places is not narrowed by a looser matcher",
    file: L("a:", "  x: 1", "  y: 2", "b:", "    x: 1", "    y: 2"),
    search: "x: 1\n   y: 2",
    replacement: "x: 1\n   y: 3",
    expect: { refuse: "multiple", lines: [2, 5] },
  },
  {
    name: "replaceAll changes every copy, each in the file's terms",
    file: L("say(“hi”)", "other()", "  say(“hi”)"),
    search: 'say("hi")',
    replacement: 'say("hey")',
    replaceAll: true,
    expect: { content: L("say(“hey”)", "other()", "  say(“hey”)") },
  },
  {
    name: "typo in an anchor line is not forgiven",
    file: tests,
    search: "  const r = sum(1, 2);\n  expcet(r).toBe(3);\n});\n\ntest('adds negatvies', () => {",
    replacement: "x",
    expect: { refuse: "not_found" },
  },
]);
