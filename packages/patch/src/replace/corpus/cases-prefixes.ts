// Line-number prefixes copied from a file view into oldString (and sometimes newString), and text
// that only looks prefixed.
import { type EditCase, L, inCategory, numbered } from "./helpers.js";

const py = L("import os", "", "def load(path):", "    with open(path) as f:", "        return f.read()", "", "def main():", "    print(load('x'))");
const js = L("function greet(name) {", "  const text = `Hi ${name}`;", "  console.log(text);", "  return text;", "}");

export const PREFIX_CASES: EditCase[] = inCategory("prefixes", [
  {
    name: "read-tool prefixes in both strings",
    file: py,
    search: numbered(4, "    with open(path) as f:", "        return f.read()"),
    replacement: numbered(4, "    with open(path, encoding='utf-8') as f:", "        return f.read()"),
    expect: { content: py.replace("open(path)", "open(path, encoding='utf-8')"), line: 4 },
  },
  {
    name: "read-tool prefixes in oldString only",
    file: py,
    search: numbered(7, "def main():", "    print(load('x'))"),
    replacement: "def main():\n    print(load('y'))",
    expect: { content: py.replace("load('x')", "load('y')"), line: 7 },
  },
  {
    name: "newString lines without a prefix taken as they are",
    file: js,
    search: numbered(3, "  console.log(text);", "  return text;"),
    replacement: `${numbered(3, "  console.log(text);")}\n  console.error(text);\n${numbered(4, "  return text;")}`,
    expect: { content: js.replace("  console.log(text);\n", "  console.log(text);\n  console.error(text);\n"), line: 3 },
  },
  {
    name: "arrow prefixes",
    file: js,
    search: "     2→  const text = `Hi ${name}`;\n     3→  console.log(text);",
    replacement: "     2→  const text = `Hello ${name}`;\n     3→  console.log(text);",
    expect: { content: js.replace("Hi ${name}", "Hello ${name}") },
  },
  {
    name: "colon prefixes",
    file: js,
    search: "4:   return text;\n5: }",
    replacement: "4:   return text.trim();\n5: }",
    expect: { content: js.replace("return text;", "return text.trim();") },
  },
  {
    name: "pipe prefixes",
    file: js,
    search: "1|function greet(name) {\n2|  const text = `Hi ${name}`;",
    replacement: "1|function greet(name = 'you') {\n2|  const text = `Hi ${name}`;",
    expect: { content: js.replace("greet(name)", "greet(name = 'you')") },
  },
  {
    name: "blank line of a read view keeps its bare number",
    file: py,
    search: `${numbered(5, "        return f.read()")}\n     6\n${numbered(7, "def main():")}`,
    replacement: `${numbered(5, "        return f.read()")}\n     6\n     7\tdef run():`,
    expect: { content: py.replace("def main():", "def run():") },
  },
  {
    name: "prefixes only in newString are refused",
    file: js,
    search: "  return text;",
    replacement: numbered(4, "  return text + '!';"),
    expect: { refuse: "line_number_prefix" },
  },
  {
    name: "prefixed newString of several lines refused",
    file: py,
    search: "def main():\n    print(load('x'))",
    replacement: numbered(7, "def main():", "    print(load('z'))"),
    expect: { refuse: "line_number_prefix" },
  },
  {
    name: "mixed prefixed and unprefixed lines are not stripped",
    file: py,
    search: `${numbered(4, "    with open(path) as f:")}\n        return f.read()`,
    replacement: "    with open(path) as f:\n        return f.read().strip()",
    expect: { refuse: "not_found" },
  },
  {
    name: "numbers that are not consecutive are not a prefix",
    file: py,
    search: `${numbered(4, "    with open(path) as f:")}\n${numbered(9, "        return f.read()")}`,
    replacement: "x",
    expect: { refuse: "not_found" },
  },
  {
    name: "numbered list is real content",
    file: L("Steps:", "1: open the valve", "2: wait", "3: close the valve"),
    search: "1: open the valve\n2: wait",
    replacement: "1: open the valve\n2: wait ten seconds",
    expect: { content: L("Steps:", "1: open the valve", "2: wait ten seconds", "3: close the valve"), matcher: "exact" },
  },
  {
    name: "TSV of numbers is real content",
    file: L("1\t10", "2\t20", "3\t30"),
    search: "2\t20\n3\t30",
    replacement: "2\t21\n3\t31",
    expect: { content: L("1\t10", "2\t21", "3\t31"), matcher: "exact" },
  },
  {
    name: "TSV newString in a TSV file is not a copied prefix",
    file: L("id\tvalue", "1\t10", "2\t20"),
    search: "id\tvalue",
    replacement: "id\tvalue\n0\t0",
    expect: { content: L("id\tvalue", "0\t0", "1\t10", "2\t20") },
  },
  {
    name: "prefixed search that is stale is refused",
    file: py,
    search: numbered(4, "    with open(path, 'rb') as f:", "        return f.read()"),
    replacement: numbered(4, "    with open(path) as f:", "        return f.read()"),
    expect: { refuse: "not_found" },
  },
  {
    name: "prefixed search with wrong indentation is re-indented",
    file: py,
    search: numbered(4, "with open(path) as f:", "    return f.read()"),
    replacement: numbered(4, "with open(path) as f:", "    data = f.read()", "    return data"),
    expect: { content: py.replace("        return f.read()", "        data = f.read()\n        return data") },
  },
  {
    name: "stale row of a TSV is not read as prefixed text found elsewhere",
    file: L("1\talpha", "2\tbeta", "", "notes:", "alpha", "gamma"),
    search: "1\talpha\n2\tgamma",
    replacement: "1\talpha\n2\tdelta",
    expect: { refuse: "not_found" },
  },
]);
