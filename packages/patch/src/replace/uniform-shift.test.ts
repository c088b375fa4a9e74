// Class 8 of issue 33 (OpenCode's indentation-flexible cases): an oldString written without the
// file's leading indentation (or with more), same nesting, applies when every line shifts by the same
// amount; the replacement is written at the file's depth. A block whose lines shift by different
// amounts nests otherwise than the file and is refused.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { replace } from "../index.js";
import { L } from "./corpus/helpers.js";
import { refusal } from "./expect-refusal.js";

describe("OpenCode's indentation-flexible cases", () => {
  it("applies a nested function written without its leading indentation (OpenCode's first case)", () => {
    const file = ["    function nested() {", '      console.log("deeply nested");', "      return true;", "    }"].join("\n");
    const out = replace(file, ["function nested() {", '  console.log("deeply nested");', "  return true;", "}"].join("\n"), ["function nested() {", '  console.log("updated");', "  return false;", "}"].join("\n"));
    expect(out.content).toBe(["    function nested() {", '      console.log("updated");', "      return false;", "    }"].join("\n"));
  });

  it("refuses a block whose lines shift by different amounts (OpenCode's second case: the file nests them otherwise)", () => {
    const file = ["  if (true) {", '    console.log("level 1");', '      console.log("level 2");', "  }"].join("\n");
    const error = refusal(() => replace(file, ["if (true) {", 'console.log("level 1");', '  console.log("level 2");', "}"].join("\n"), ["if (true) {", 'console.log("updated");', "}"].join("\n")));
    expect(error.code).toBe("indentation_mismatch");
  });
});

describe("every line shifted by the same amount", () => {
  const cases: Array<{ name: string; file: string; search: string; replacement: string; expected: string }> = [
    {
      name: "TypeScript method in a class",
      file: L("class Cart {", "  total(items: Item[]) {", "    let sum = 0;", "    for (const i of items) {", "      sum += i.price;", "    }", "    return sum;", "  }", "}"),
      search: "for (const i of items) {\n  sum += i.price;\n}",
      replacement: "for (const i of items) {\n  if (i.free) continue;\n  sum += i.price;\n}",
      expected: L("class Cart {", "  total(items: Item[]) {", "    let sum = 0;", "    for (const i of items) {", "      if (i.free) continue;", "      sum += i.price;", "    }", "    return sum;", "  }", "}"),
    },
    {
      name: "Python method body written one level too deep",
      file: L("class Repo:", "    def get(self, id):", "        row = self.db.find(id)", "        return row"),
      search: "            row = self.db.find(id)\n            return row",
      replacement: "            row = self.db.find(id)\n            if row is None:\n                raise KeyError(id)\n            return row",
      expected: L("class Repo:", "    def get(self, id):", "        row = self.db.find(id)", "        if row is None:", "            raise KeyError(id)", "        return row"),
    },
    {
      name: "Go block inside a loop (tabs), written at column 0",
      file: L("func main() {", "\tfor i := 0; i < 3; i++ {", "\t\tif i > 1 {", "\t\t\tfmt.Println(i)", "\t\t}", "\t}", "}"),
      search: "if i > 1 {\n\tfmt.Println(i)\n}",
      replacement: "if i > 1 {\n\tfmt.Println(i)\n\tbreak\n}",
      expected: L("func main() {", "\tfor i := 0; i < 3; i++ {", "\t\tif i > 1 {", "\t\t\tfmt.Println(i)", "\t\t\tbreak", "\t\t}", "\t}", "}"),
    },
    {
      name: "YAML mapping deep in a manifest",
      file: L("spec:", "  template:", "    spec:", "      containers:", "        - name: web", "          image: nginx"),
      search: "- name: web\n  image: nginx",
      replacement: "- name: web\n  image: nginx:1.25\n  ports:\n    - containerPort: 80",
      expected: L("spec:", "  template:", "    spec:", "      containers:", "        - name: web", "          image: nginx:1.25", "          ports:", "            - containerPort: 80"),
    },
    {
      name: "HTML inside a JSX return",
      file: L("export const A = () => (", "  <ul>", "    <li>one</li>", "  </ul>", ");"),
      search: "<ul>\n  <li>one</li>\n</ul>",
      replacement: "<ul>\n  <li>one</li>\n  <li>two</li>\n</ul>",
      expected: L("export const A = () => (", "  <ul>", "    <li>one</li>", "    <li>two</li>", "  </ul>", ");"),
    },
    {
      name: "Markdown nested list",
      file: L("- item", "  - sub", "    - subsub"),
      search: "- sub\n  - subsub",
      replacement: "- sub\n  - subsub\n  - subsub two",
      expected: L("- item", "  - sub", "    - subsub", "    - subsub two"),
    },
    {
      name: "C with kernel tabs, written at column 0 with its tabs",
      file: L("int f(void)", "{", "\tif (x) {", "\t\ty();", "\t}", "\treturn 0;", "}"),
      search: "if (x) {\n\ty();\n}",
      replacement: "if (x) {\n\ty();\n\tz();\n}",
      expected: L("int f(void)", "{", "\tif (x) {", "\t\ty();", "\t\tz();", "\t}", "\treturn 0;", "}"),
    },
    {
      name: "CRLF file with a blank line inside the block",
      file: "class A {\r\n    m() {\r\n        a();\r\n\r\n        b();\r\n    }\r\n}\r\n",
      search: "m() {\n    a();\n\n    b();\n}",
      replacement: "m() {\n    a();\n\n    c();\n}",
      expected: "class A {\r\n    m() {\r\n        a();\r\n\r\n        c();\r\n    }\r\n}\r\n",
    },
  ];
  for (const t of cases) {
    it(`applies: ${t.name}`, () => {
      expect(replace(t.file, t.search, t.replacement).content).toBe(t.expected);
    });
  }

  it("applies with replaceAll to every shifted block", () => {
    const file = L("  if (a) {", "    x();", "  }", "  if (a) {", "    x();", "  }");
    expect(replace(file, "if (a) {\n  x();\n}", "if (a) {\n  y();\n}", { replaceAll: true }).content).toBe(L("  if (a) {", "    y();", "  }", "  if (a) {", "    y();", "  }"));
  });

  it("applies a block shifted by any amount, and writes the replacement at the file's depth (property)", () => {
    const levelsArb = fc.array(fc.nat(2), { minLength: 2, maxLength: 8 }).map((steps) => {
      const levels = [0];
      for (const s of steps.slice(1)) levels.push(Math.max(0, Math.min(levels[levels.length - 1]! + 1, s)));
      return levels;
    });
    fc.assert(
      fc.property(levelsArb, fc.constantFrom("  ", "    ", "\t"), fc.nat(3), fc.nat(3), (levels, unit, fileBase, searchBase) => {
        const texts = levels.map((_, k) => `call${k}();`);
        const fileLines = ["start();", ...levels.map((l, k) => unit.repeat(fileBase + l) + texts[k]), "end();"];
        const search = levels.map((l, k) => unit.repeat(searchBase + l) + texts[k]);
        const replacement = [...search.slice(0, -1), unit.repeat(searchBase + levels[levels.length - 1]!) + "added();", search[search.length - 1]!];
        const expected = [...fileLines];
        expected.splice(levels.length, 0, unit.repeat(fileBase + levels[levels.length - 1]!) + "added();");
        expect(replace(L(...fileLines), search.join("\n"), replacement.join("\n")).content).toBe(L(...expected));
      }),
      { numRuns: 200 },
    );
  });
});
