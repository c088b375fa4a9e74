// Escapes written one level too many, and elisions: a search that leaves lines out is refused.
import { type EditCase, L, inCategory } from "./helpers.js";

const js = L("function build(parts) {", "  const head = parts[0];", "  const tail = parts.slice(1);", "  const joined = tail.join(\"\\n\");", "  return head + joined;", "}");

export const ESCAPE_AND_ELISION_CASES: EditCase[] = [
  ...inCategory("escapes", [
    {
      name: "escaped newlines and tabs in both strings",
      file: L("def f():", "\treturn 1"),
      search: "def f():\\n\\treturn 1",
      replacement: "def f():\\n\\treturn 2",
      expect: { content: L("def f():", "\treturn 2"), matcher: "escape-normalised" },
    },
    {
      name: "escaped quotes with real newlines in both strings",
      file: L('msg = "hi"', 'print(msg + "!")'),
      search: 'msg = \\"hi\\"\nprint(msg + \\"!\\")',
      replacement: 'msg = \\"hello\\"\nprint(msg + \\"!\\")',
      expect: { content: L('msg = "hello"', 'print(msg + "!")'), matcher: "escape-normalised" },
    },
    {
      name: "escaped backslash",
      file: L("path = 'C:\\temp'"),
      search: "path = 'C:\\\\temp'",
      replacement: "path = 'D:\\\\temp'",
      expect: { content: L("path = 'D:\\temp'"), matcher: "escape-normalised" },
    },
    {
      name: "plain replacement keeps its literal backslash-n",
      file: L('log("start")'),
      search: 'log(\\"start\\")',
      replacement: 'log("start\\n")',
      expect: { content: L('log("start\\n")'), matcher: "escape-normalised" },
    },
    {
      name: "file's own literal backslash-n matched as written",
      file: js,
      search: '  const joined = tail.join("\\n");',
      replacement: '  const joined = tail.join("\\n\\n");',
      expect: { content: js.replace('join("\\n")', 'join("\\n\\n")'), matcher: "exact" },
    },
    {
      name: "double-escaped regular expression",
      file: L("const digits = /\\d+/;"),
      search: "const digits = /\\\\d+/;",
      replacement: "const digits = /\\\\d*/;",
      expect: { content: L("const digits = /\\d*/;"), matcher: "escape-normalised" },
    },
  ]),
  ...inCategory("elisions", [
    {
      name: "comment standing for elided lines",
      file: js,
      search: "function build(parts) {\n  // ... existing code ...\n  return head + joined;\n}",
      replacement: "function build(parts) {\n  return parts.join('');\n}",
      expect: { refuse: "not_found" },
    },
    {
      name: "bare ellipsis line for the middle",
      file: js,
      search: "  const head = parts[0];\n  ...\n  return head + joined;",
      replacement: "  return '';",
      expect: { refuse: "not_found" },
    },
    {
      name: "ellipsis inside a line",
      file: js,
      search: "  const tail = parts.slice(...);",
      replacement: "  const tail = parts.slice(2);",
      expect: { refuse: "not_found" },
    },
    {
      name: "first and last lines of a long function only",
      file: js,
      search: "function build(parts) {\n}",
      replacement: "function build() {\n}",
      expect: { refuse: "not_found" },
    },
    {
      name: "Python pass standing for a body",
      file: L("def f(x):", "    y = x + 1", "    z = y * 2", "    return z"),
      search: "def f(x):\n    ...\n    return z",
      replacement: "def f(x):\n    return x",
      expect: { refuse: "not_found" },
    },
  ]),
];
