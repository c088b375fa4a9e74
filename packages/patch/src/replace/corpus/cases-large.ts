// Large files: 5,000 lines of near-identical blocks. The one block that differs is found and
// changed; a search that fits every block is refused with all of them; a stale one is refused.
import { type EditCase, L, inCategory } from "./helpers.js";

/** 5,000 lines: 625 blocks of 8 lines, identical but for the number in their second line. */
function blocks(): string[] {
  const lines: string[] = [];
  for (let i = 0; lines.length < 5000; i++) {
    lines.push("function handler(req) {", `  const id = ${i};`, "  if (!req.ok) {", "    return fail(id);", "  }", "  return ok(id);", "}", "");
  }
  return lines;
}

const lines = blocks();
const file = L(...lines);
const at = (line: number, text: string): string => L(...lines.slice(0, line - 1), text, ...lines.slice(line));

export const LARGE_CASES: EditCase[] = inCategory("large", [
  {
    name: "unique block among 625 near-identical ones",
    file,
    search: "  const id = 317;\n  if (!req.ok) {",
    replacement: "  const id = 317;\n  if (!req.ok && !req.retry) {",
    expect: { content: at(317 * 8 + 3, "  if (!req.ok && !req.retry) {"), line: 317 * 8 + 2 },
  },
  {
    name: "search that fits all 625 blocks is refused",
    file,
    search: "  if (!req.ok) {\n    return fail(id);\n  }",
    replacement: "  if (!req.ok) throw new Error();",
    expect: { refuse: "multiple" },
  },
  {
    name: "wrongly indented unique block in a large file",
    file,
    search: "const id = 42;\nif (!req.ok) {\n  return fail(id);\n}",
    replacement: "const id = 42;\nif (!req.ok) {\n  log(id);\n  return fail(id);\n}",
    expect: { content: at(42 * 8 + 4, "    log(id);\n    return fail(id);"), line: 42 * 8 + 2 },
  },
  {
    name: "stale number matches none of 625 blocks",
    file,
    search: "function handler(req) {\n  const id = 9999;\n  if (!req.ok) {",
    replacement: "x",
    expect: { refuse: "not_found" },
  },
  {
    name: "prefixed search for one block of a large file",
    file,
    search: `${String(1001).padStart(6)}\t  const id = 125;\n${String(1002).padStart(6)}\t  if (!req.ok) {`,
    replacement: "  const id = 125;\n  if (req.ok === false) {",
    expect: { content: at(125 * 8 + 3, "  if (req.ok === false) {"), line: 125 * 8 + 2 },
  },
]);
