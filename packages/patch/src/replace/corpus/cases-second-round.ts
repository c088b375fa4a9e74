// Cases from the second round of held-out checks (issue 33): lazy elision markers in newString,
// numbered content and other tools' line-number views, kernel-style alignment, indentation of other
// characters, locale quote pairs, uniformly shifted blocks and a stale edit of one very long line.
import { type EditCase, L, inCategory } from "./helpers.js";

const js = L("function total(items) {", "  let sum = 0;", "  for (const item of items) sum += item.price;", "  return sum;", "}");
const kernel = L("static int probe(struct device *dev)", "{", "\tif (dev->flags &&", "\t    dev->mask)", "\t\treturn -EINVAL;", "\treturn 0;", "}");
const longLine = Array.from({ length: 100_000 }, (_, i) => "abcdefghijklmnopqrstuvwxyz"[(i * 7919 + ((i * i) % 7)) % 26]).join("");

export const SECOND_ROUND_CASES: EditCase[] = [
  ...inCategory("elisions", [
    {
      name: "newString body replaced by // ... existing code ...",
      file: js,
      search: js.trimEnd(),
      replacement: "function total(items, tax) {\n  // ... existing code ...\n  return sum * (1 + tax);\n}",
      expect: { refuse: "elision" },
    },
    {
      name: "newString items replaced by <!-- … -->",
      file: L("<ul>", "  <li>One</li>", "  <li>Two</li>", "</ul>"),
      search: "<ul>\n  <li>One</li>\n  <li>Two</li>\n</ul>",
      replacement: "<ul>\n  <li>Zero</li>\n  <!-- … -->\n</ul>",
      expect: { refuse: "elision" },
    },
    {
      name: "Python stub body that was already ... is written",
      file: L("class P(Protocol):", "    def get(self) -> int:", "        ..."),
      search: "    def get(self) -> int:\n        ...",
      replacement: "    def get(self) -> str:\n        ...",
      expect: { content: L("class P(Protocol):", "    def get(self) -> str:", "        ...") },
    },
  ]),
  ...inCategory("prefixes", [
    {
      name: "year list added as content",
      file: L("## History", "TODO"),
      search: "TODO",
      replacement: "2025: launched\n2026: expanded",
      expect: { content: L("## History", "2025: launched", "2026: expanded") },
    },
    {
      name: "YAML port map added as content",
      file: L("ports:", "  # none"),
      search: "  # none",
      replacement: "  8080: web\n  8081: api",
      expect: { content: L("ports:", "  8080: web", "  8081: api") },
    },
    {
      name: "Codex L12: view stripped",
      file: L("a = 1", "b = 2", "c = 3"),
      search: "L2: b = 2\nL3: c = 3",
      replacement: "L2: b = 20\nL3: c = 3",
      expect: { content: L("a = 1", "b = 20", "c = 3") },
    },
    {
      name: "grep -n path:12: view stripped",
      file: L("a = 1", "b = 2", "c = 3"),
      search: "src/app.py:2:b = 2",
      replacement: "src/app.py:2:b = 20",
      expect: { content: L("a = 1", "b = 20", "c = 3") },
    },
    {
      name: "Codex prefixes in newString only refused",
      file: L("a = 1", "b = 2", "c = 3"),
      search: "b = 2",
      replacement: "L2: b = 20\nL3: b2 = 21",
      expect: { refuse: "line_number_prefix" },
    },
  ]),
  ...inCategory("indentation", [
    {
      name: "kernel tabs and alignment written in 4-space levels",
      file: kernel,
      search: "    if (dev->flags &&\n        dev->mask)\n        return -EINVAL;",
      replacement: "    if (dev->flags &&\n        dev->mask &&\n        dev->ready)\n        return -EBUSY;",
      expect: { content: L("static int probe(struct device *dev)", "{", "\tif (dev->flags &&", "\t    dev->mask &&", "\t    dev->ready)", "\t\treturn -EBUSY;", "\treturn 0;", "}") },
    },
    {
      name: "U+3000 paragraph indentation kept",
      file: L("第一章", "\u3000\u3000本文です。"),
      search: "  本文です。",
      replacement: "  本文です。\n  次の段落。",
      expect: { content: L("第一章", "\u3000\u3000本文です。", "\u3000\u3000次の段落。") },
    },
    {
      name: "NBSP list indentation kept",
      file: L("list:", "\u00a0\u00a0- a"),
      search: "  - a",
      replacement: "  - a\n  - b",
      expect: { content: L("list:", "\u00a0\u00a0- a", "\u00a0\u00a0- b") },
    },
    {
      name: "nested function without its leading indentation (OpenCode)",
      file: L("    function nested() {", "      return true;", "    }"),
      search: "function nested() {\n  return true;\n}",
      replacement: "function nested() {\n  return false;\n}",
      expect: { content: L("    function nested() {", "      return false;", "    }") },
    },
  ]),
  ...inCategory("unicode", [
    {
      name: "German quotes in added text",
      file: L("Er sagte „Hallo“ und ging."),
      search: 'Er sagte "Hallo" und ging.',
      replacement: 'Er sagte "Hallo" und ging. Sie rief "Tschüss".',
      expect: { content: L("Er sagte „Hallo“ und ging. Sie rief „Tschüss“.") },
    },
    {
      name: "it‘s against it's and it’s refused as ambiguous",
      file: L("say it's", "say it’s"),
      search: "it‘s",
      replacement: "it is",
      expect: { refuse: "multiple", lines: [1, 2] },
    },
  ]),
  ...inCategory("large", [
    {
      name: "stale edit of one 100,000-character line refused quickly",
      file: L("header", longLine, "footer"),
      search: `${longLine.slice(0, 50_000)}X${longLine.slice(50_001)}`,
      replacement: "x",
      expect: { refuse: "not_found" },
    },
  ]),
];
