// Indentation written in another width or kind than the file's: the replacement is re-indented by
// levels, and a search whose nesting differs from the file's is refused.
import { type EditCase, L, inCategory } from "./helpers.js";

const py4 = L("class Cache:", "    def get(self, key):", "        if key in self.data:", "            return self.data[key]", "        return None");
const goTabs = L("func run() error {", "\tfor _, job := range jobs {", "\t\tif err := job.Do(); err != nil {", "\t\t\treturn err", "\t\t}", "\t}", "\treturn nil", "}");
const js2 = L("function f(items) {", "  for (const item of items) {", "    if (item.ok) {", "      use(item);", "    }", "  }", "}");

export const INDENTATION_CASES: EditCase[] = inCategory("indentation", [
  {
    name: "2-space search in a 4-space Python file, new nested block",
    file: py4,
    search: "def get(self, key):\n  if key in self.data:\n    return self.data[key]\n  return None",
    replacement: "def get(self, key):\n  if key in self.data:\n    return self.data[key]\n  if self.parent:\n    return self.parent.get(key)\n  return None",
    expect: {
      content: L("class Cache:", "    def get(self, key):", "        if key in self.data:", "            return self.data[key]", "        if self.parent:", "            return self.parent.get(key)", "        return None"),
    },
  },
  {
    name: "4-space search in a tab-indented Go file, several levels",
    file: goTabs,
    search: "    for _, job := range jobs {\n        if err := job.Do(); err != nil {\n            return err\n        }\n    }",
    replacement: "    for _, job := range jobs {\n        if err := job.Do(); err != nil {\n            log.Print(err)\n            return err\n        }\n    }",
    expect: { content: goTabs.replace("\t\t\treturn err\n", "\t\t\tlog.Print(err)\n\t\t\treturn err\n") },
  },
  {
    name: "tab search in a 2-space file",
    file: js2,
    search: "\tfor (const item of items) {\n\t\tif (item.ok) {\n\t\t\tuse(item);\n\t\t}\n\t}",
    replacement: "\tfor (const item of items) {\n\t\tif (item.ok) {\n\t\t\tuse(item);\n\t\t} else {\n\t\t\tskip(item);\n\t\t}\n\t}",
    expect: { content: js2.replace("      use(item);\n    }\n", "      use(item);\n    } else {\n      skip(item);\n    }\n") },
  },
  {
    name: "8-space search in a 4-space file",
    file: py4,
    search: "if key in self.data:\n        return self.data[key]",
    replacement: "if key in self.data:\n        value = self.data[key]\n        return value",
    expect: { content: py4.replace("            return self.data[key]", "            value = self.data[key]\n            return value") },
  },
  {
    name: "4-space search in a 2-space file, one level deeper added",
    file: js2,
    search: "if (item.ok) {\n    use(item);\n}",
    replacement: "if (item.ok) {\n    if (item.fresh) {\n        use(item);\n    }\n}",
    expect: { content: js2.replace("    if (item.ok) {\n      use(item);\n    }", "    if (item.ok) {\n      if (item.fresh) {\n        use(item);\n      }\n    }") },
  },
  {
    name: "return moved into the if by the search's nesting is refused",
    file: L("def check(x):", "    if x > 0:", "        log(x)", "    return x"),
    search: "    if x > 0:\n        log(x)\n        return x",
    replacement: "    if x > 0:\n        log(x)\n        return x * 2",
    expect: { refuse: "indentation_mismatch" },
  },
  {
    name: "search that flattens the nesting is refused even for a deletion",
    file: L("for a in xs:", "    for b in ys:", "        pair(a, b)"),
    search: "for a in xs:\n    for b in ys:\n    pair(a, b)",
    replacement: "for a in xs:\n    for b in ys:",
    expect: { refuse: "indentation_mismatch" },
  },
  {
    name: "YAML with 4-space search in a 2-space file",
    file: L("services:", "  web:", "    image: nginx", "    ports:", "      - 80"),
    search: "web:\n    image: nginx\n    ports:\n        - 80",
    replacement: "web:\n    image: nginx\n    ports:\n        - 80\n        - 443",
    expect: { content: L("services:", "  web:", "    image: nginx", "    ports:", "      - 80", "      - 443") },
  },
  {
    name: "replacement already in the file's indentation is kept",
    file: py4,
    search: "return None",
    replacement: "        return default",
    expect: { content: py4.replace("        return None", "        return default") },
  },
  {
    name: "tab search a level too deep in a tab file",
    file: L("func f() {", "\tx := 1", "\ty := 2", "}"),
    search: "\t\tx := 1\n\t\ty := 2",
    replacement: "\t\tx := 1\n\t\ty := 2\n\t\tz := 3",
    expect: { content: L("func f() {", "\tx := 1", "\ty := 2", "\tz := 3", "}") },
  },
  {
    name: "search with too little indentation found inside the file's indentation",
    file: L("def f():", "    if a:", "        if b:", "            c()"),
    search: "  if b:\n      c()",
    replacement: "  if b:\n      c()\n  d()",
    expect: { content: L("def f():", "    if a:", "        if b:", "            c()", "        d()") },
  },
]);
