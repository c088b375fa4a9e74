// Class 1 of issue 33: a newString whose marker line (`// ... existing code ...`) stands where
// oldString had real lines is refused, naming the marker; text that merely contains `...` is written.
import { describe, expect, it } from "vitest";
import { replace } from "../index.js";
import { L } from "./corpus/helpers.js";
import { isElisionMarker } from "./elision.js";
import { refusal } from "./expect-refusal.js";

interface Lazy {
  name: string;
  file: string;
  search: string;
  replacement: string;
  marker: string;
}

const js = L("function total(items) {", "  let sum = 0;", "  for (const item of items) sum += item.price;", "  return sum;", "}");
const py = L("def load(path):", "    with open(path) as f:", "        data = f.read()", "    return parse(data)");
const go = L("func (s *Server) Start() error {", "\tln, err := net.Listen(\"tcp\", s.addr)", "\tif err != nil {", "\t\treturn err", "\t}", "\treturn s.serve(ln)", "}");
const c = L("static int probe(struct device *dev)", "{", "\tint ret;", "", "\tret = init_hw(dev);", "\tif (ret)", "\t\treturn ret;", "\treturn 0;", "}");
const html = L("<ul>", "  <li>One</li>", "  <li>Two</li>", "  <li>Three</li>", "</ul>");
const yaml = L("services:", "  web:", "    image: nginx", "    ports:", "      - 80:80");
const sql = L("SELECT id,", "       name,", "       email", "FROM users;");

const lazy: Lazy[] = [
  { name: "JS body as // ... existing code ...", file: js, search: js.trimEnd(), replacement: "function total(items, tax) {\n  // ... existing code ...\n  return sum * (1 + tax);\n}", marker: "// ... existing code ..." },
  { name: "Python body as # ... rest unchanged", file: py, search: py.trimEnd(), replacement: "def load(path, mode='r'):\n    # ... rest unchanged", marker: "# ... rest unchanged" },
  { name: "Go body as /* ... */", file: go, search: go.trimEnd(), replacement: "func (s *Server) Start(ctx context.Context) error {\n\t/* ... */\n}", marker: "/* ... */" },
  { name: "C (kernel style) middle as a bare … line", file: c, search: c.trimEnd(), replacement: "static int probe(struct device *dev)\n{\n\tint ret;\n\n\t…\n\treturn ret;\n}", marker: "…" },
  { name: "HTML items as <!-- … -->", file: html, search: html.trimEnd(), replacement: "<ul>\n  <li>Zero</li>\n  <!-- … -->\n</ul>", marker: "<!-- … -->" },
  { name: "YAML keys as # ...", file: yaml, search: yaml.trimEnd(), replacement: "services:\n  web:\n    # ...\n    restart: always", marker: "# ..." },
  { name: "SQL columns as -- ... other columns ...", file: sql, search: sql.trimEnd(), replacement: "SELECT id,\n       -- ... other columns ...\nFROM accounts;", marker: "-- ... other columns ..." },
  { name: "Python stub body replaced by a new bare ...", file: py, search: py.trimEnd(), replacement: "def load(path):\n    ...", marker: "..." },
];

describe("elision markers standing for real lines", () => {
  for (const t of lazy) {
    it(`refuses ${t.name}, naming the marker line`, () => {
      const error = refusal(() => replace(t.file, t.search, t.replacement));
      expect(error.code).toBe("elision");
      expect(error.message).toContain(JSON.stringify(t.marker));
      const line = t.replacement.split("\n").findIndex((l) => l.trim() === t.marker) + 1;
      expect(error.message).toContain(`newString line ${line} `);
    });
  }

  it("refuses after line-number prefixes are stripped from both strings", () => {
    const numbered = (first: number, lines: string[]) => lines.map((l, k) => `${String(first + k).padStart(6)}\t${l}`).join("\n");
    const lines = js.trimEnd().split("\n");
    const error = refusal(() => replace(js, numbered(1, lines), numbered(1, [lines[0]!, "  // ... existing code ...", lines[3]!, lines[4]!])));
    expect(error.code).toBe("elision");
  });

  it("refuses with replaceAll too and leaves the file unchanged", () => {
    const file = L("a()", "b()", "a()", "b()");
    expect(refusal(() => replace(file, "a()\nb()", "// ... existing code ...\nc()", { replaceAll: true })).code).toBe("elision");
  });
});

describe("text that merely contains an ellipsis is written", () => {
  it("keeps a Python stub whose body was already ...", () => {
    const stub = L("class Repo(Protocol):", "    def get(self, id: int) -> Item:", "        ...");
    const out = replace(stub, "    def get(self, id: int) -> Item:\n        ...", "    def get(self, id: str) -> Item:\n        ...");
    expect(out.content).toBe(L("class Repo(Protocol):", "    def get(self, id: str) -> Item:", "        ..."));
  });

  it("writes strings, spreads and prose with ... (JS, Python, Markdown)", () => {
    expect(replace(js, "  return sum;", '  console.log("...");\n  return [...items].length && sum;').content).toContain('console.log("...");');
    expect(replace(py, "    return parse(data)", "    print('loading...')\n    return parse(data)").content).toContain("print('loading...')");
    const md = L("# Notes", "", "Some text.");
    expect(replace(md, "Some text.", "Some text...\n\nAnd more… later.").content).toBe(L("# Notes", "", "Some text...", "", "And more… later."));
  });

  it("writes a marker comment that adds lines without replacing any", () => {
    const out = replace(js, "  return sum;", "  // ... more checks to come ...\n  return sum;");
    expect(out.content).toContain("  // ... more checks to come ...\n  return sum;");
  });

  it("writes a marker line kept from oldString (the file already has it)", () => {
    const file = L("function f() {", "  // ... existing code ...", "  return 1;", "}");
    expect(replace(file, "  // ... existing code ...\n  return 1;", "  // ... existing code ...\n  return 2;").content).toBe(L("function f() {", "  // ... existing code ...", "  return 2;", "}"));
  });

  it("writes ordinary comments that end in an ellipsis", () => {
    const out = replace(js, "  let sum = 0;", "  // Wait... this must start at the base price\n  let sum = base;");
    expect(out.content).toContain("// Wait... this must start");
  });
});

describe("isElisionMarker", () => {
  it("recognises marker-only comment lines in many comment styles", () => {
    for (const line of ["// ... existing code ...", "  # ... rest unchanged", "<!-- … -->", "/* ... */", "…", "    ...", "{/* ... rest of the form ... */}", "-- ... other columns ...", "// rest of the code...", "% ... proofs omitted ...", "(* ... *)", "; ... same as before"]) {
      expect(isElisionMarker(line), line).toBe(true);
    }
  });
  it("does not take code or prose for a marker", () => {
    for (const line of ['console.log("...")', "...args", "return [...a];", "// TODO: fix this...", "# see docs...", "x = ...", "<!-- more -->", "// existing code", "Loading…  please wait"]) {
      expect(isElisionMarker(line), line).toBe(false);
    }
  });
});
