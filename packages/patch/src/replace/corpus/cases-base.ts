// The first cases of the edit-accuracy corpus: the mistakes of the first corpus, by category.
import { CRLF, type EditCase, L, inCategory } from "./helpers.js";

const pyTwoFunctions = L(
  "def load(path):",
  "    with open(path) as f:",
  "        data = f.read()",
  "    return parse(data)",
  "",
  "def save(path, data):",
  "    with open(path, 'w') as f:",
  "        f.write(data)",
  "    return True",
);

const tsHandlers = L(
  "export function onCreate(req: Request) {",
  "  const user = auth(req);",
  "  audit('create', user);",
  "  return store.create(req.body);",
  "}",
  "",
  "export function onUpdate(req: Request) {",
  "  const user = auth(req);",
  "  audit('update', user);",
  "  return store.update(req.body);",
  "}",
);

const goTabs = L(
  "func main() {",
  "\tif err := run(); err != nil {",
  "\t\tlog.Fatal(err)",
  "\t}",
  "}",
);

export const BASE_CASES: EditCase[] = [
  ...inCategory("basics", [
    // --- exact and literal behaviour ---------------------------------------------------------------
    { name: "exact single line", file: L("a", "b", "c"), search: "b", replacement: "B", expect: { content: L("a", "B", "c"), matcher: "exact", line: 2 } },
    { name: "exact multi-line", file: L("a", "b", "c", "d"), search: "b\nc", replacement: "x", expect: { content: L("a", "x", "d"), matcher: "exact", line: 2 } },
    { name: "replacement with $& is literal", file: L("price = 1"), search: "1", replacement: "$&$$", expect: { content: L("price = $&$$"), matcher: "exact" } },
    { name: "replaceAll with $$ is literal", file: L("x", "x"), search: "x", replacement: "$$", replaceAll: true, expect: { content: L("$$", "$$"), matcher: "exact" } },
    { name: "replaceAll every occurrence", file: L("foo(1)", "bar", "foo(2)"), search: "foo", replacement: "baz", replaceAll: true, expect: { content: L("baz(1)", "bar", "baz(2)") } },
    { name: "partial first line exact substring", file: L("  const total = a + b;", "  return total;"), search: "a + b;\n  return", replacement: "a - b;\n  return", expect: { content: L("  const total = a - b;", "  return total;"), matcher: "exact" } },
    { name: "search with trailing newline removes whole line", file: L("keep", "drop", "keep2"), search: "drop\n", replacement: "", expect: { content: L("keep", "keep2"), matcher: "exact" } },
    { name: "deletion of a block", file: L("a", "  b", "  c", "d"), search: "b\nc\n", replacement: "", expect: { content: L("a", "d") } },

  ]),
  ...inCategory("basics", [
    // --- refusals of nonsense input ----------------------------------------------------------------
    { name: "identical old and new", file: L("a"), search: "a", replacement: "a", expect: { refuse: "no_change" } },
    { name: "empty search", file: L("a"), search: "", replacement: "b", expect: { refuse: "empty_search" } },
    { name: "search longer than file", file: L("a"), search: "a\nb\nc", replacement: "x", expect: { refuse: "not_found" } },
    { name: "replaceAll with no match", file: L("a"), search: "zzz", replacement: "y", replaceAll: true, expect: { refuse: "not_found" } },
    { name: "fuzzy match already reads as the replacement", file: L("    x = 1"), search: "x  =  1", replacement: "    x = 1", expect: { refuse: "no_change" } },

  ]),
  ...inCategory("indentation", [
    // --- wrong indentation -------------------------------------------------------------------------
    { name: "one line without its indentation keeps the file's", file: pyTwoFunctions, search: "return parse(data)", replacement: "return parse(data, strict=True)", expect: { content: pyTwoFunctions.replace("return parse(data)", "return parse(data, strict=True)"), matcher: "exact" } },
    {
      name: "block indented one level too little is re-indented",
      file: L("class A:", "    def f(self):", "        if x:", "            y()", "        return 1"),
      search: "if x:\n    y()",
      replacement: "if x:\n    y()\n    z()",
      expect: { content: L("class A:", "    def f(self):", "        if x:", "            y()", "            z()", "        return 1"), matcher: "line-trimmed" },
    },
    {
      name: "block indented too much is de-indented",
      file: L("def f():", "  a = 1", "  b = 2"),
      search: "      a = 1\n      b = 2",
      replacement: "      a = 1\n      b = 3",
      expect: { content: L("def f():", "  a = 1", "  b = 3"), matcher: "line-trimmed" },
    },
    {
      name: "spaces for the file's tabs",
      file: goTabs,
      search: "    if err := run(); err != nil {\n        log.Fatal(err)\n    }",
      replacement: "    if err := run(); err != nil {\n        log.Println(err)\n        os.Exit(1)\n    }",
      expect: { content: L("func main() {", "\tif err := run(); err != nil {", "\t\tlog.Println(err)", "\t\tos.Exit(1)", "\t}", "}"), matcher: "line-trimmed" },
    },
    {
      name: "tabs for the file's spaces",
      file: L("function f() {", "    if (a) {", "        b();", "    }", "}"),
      search: "\tif (a) {\n\t\tb();\n\t}",
      replacement: "\tif (a) {\n\t\tc();\n\t}",
      expect: { content: L("function f() {", "    if (a) {", "        c();", "    }", "}"), matcher: "line-trimmed" },
    },
    {
      name: "wrong indentation and trailing whitespace together",
      file: L("items:", "  - name: a", "    value: 1", "  - name: b", "    value: 2"),
      search: "- name: b   \n  value: 2",
      replacement: "- name: b\n  value: 20",
      expect: { content: L("items:", "  - name: a", "    value: 1", "  - name: b", "    value: 20"), matcher: "line-trimmed" },
    },
    {
      name: "relative indentation singles out one of two blocks",
      file: L("if a:", "    run()", "    stop()", "if b:", "    run()", "stop()"),
      search: "  run()\n  stop()",
      replacement: "  run()\n  halt()",
      expect: { content: L("if a:", "    run()", "    halt()", "if b:", "    run()", "stop()"), matcher: "indentation-flexible" },
    },

  ]),
  ...inCategory("whitespace", [
    // --- trailing whitespace -----------------------------------------------------------------------
    { name: "file has trailing spaces the search lacks", file: L("a = 1   ", "b = 2\t", "c = 3"), search: "a = 1\nb = 2", replacement: "a = 10\nb = 20", expect: { content: L("a = 10", "b = 20", "c = 3"), matcher: "line-trimmed" } },
    { name: "search has trailing spaces the file lacks", file: L("x", "y", "z"), search: "x  \ny  ", replacement: "X\nY", expect: { content: L("X", "Y", "z"), matcher: "line-trimmed" } },
    { name: "internal whitespace differs", file: L("call(a,   b);", "next();"), search: "call(a, b);\nnext();", replacement: "call(b, a);\nnext();", expect: { content: L("call(b,   a);", "next();"), matcher: "whitespace-normalised" } },
    { name: "single line with different spacing inside a longer line", file: L("let total = price  *  qty;"), search: "price * qty", replacement: "price * qty * tax", expect: { content: L("let total = price  *  qty * tax;"), matcher: "whitespace-normalised" } },

  ]),
  ...inCategory("escapes", [
    // --- escaped text ------------------------------------------------------------------------------
    { name: "escaped newlines in search and replacement", file: L("function a() {", "  return 1;", "}"), search: "function a() {\\n  return 1;\\n}", replacement: "function a() {\\n  return 2;\\n}", expect: { content: L("function a() {", "  return 2;", "}"), matcher: "escape-normalised" } },
    { name: "escaped quotes", file: L('console.log("hi");'), search: 'console.log(\\"hi\\");', replacement: 'console.log(\\"bye\\");', expect: { content: L('console.log("bye");'), matcher: "escape-normalised" } },
    { name: "escaped tab", file: L("a\tb", "c"), search: "a\\tb", replacement: "a\\tB", expect: { content: L("a\tB", "c"), matcher: "escape-normalised" } },
    { name: "real newline in replacement is kept with escaped-quote search", file: L('say("x")', "end"), search: 'say(\\"x\\")\nend', replacement: 'say("y")\nend', expect: { content: L('say("y")', "end"), matcher: "escape-normalised" } },
    { name: "literal backslash-n in file matches exactly", file: L('printf("a\\n");'), search: 'printf("a\\n");', replacement: 'printf("b\\n");', expect: { content: L('printf("b\\n");'), matcher: "exact" } },

  ]),
  ...inCategory("unicode", [
    // --- typographic characters --------------------------------------------------------------------
    { name: "curly quotes in file, straight in search", file: L("title = “Hello”", "other"), search: 'title = "Hello"', replacement: 'title = "Hi"', expect: { content: L("title = “Hi”", "other"), matcher: "unicode-normalised" } },
    { name: "straight quotes in file, curly in search", file: L("msg = 'don't'"), search: "msg = ‘don’t’", replacement: "msg = 'do'", expect: { content: L("msg = 'do'"), matcher: "unicode-normalised" } },
    { name: "em dash vs hyphen", file: L("A range 1—5", "next"), search: "A range 1-5\nnext", replacement: "A range 1-6\nnext", expect: { content: L("A range 1—6", "next"), matcher: "unicode-normalised" } },
    { name: "ellipsis vs three dots", file: L("Loading…"), search: "Loading...", replacement: "Loaded", expect: { content: L("Loaded"), matcher: "unicode-normalised" } },
    { name: "non-breaking space in file", file: L("a\u00a0= 1"), search: "a = 1", replacement: "a = 2", expect: { content: L("a\u00a0= 2") } },
    { name: "decomposed accent in file, composed in search", file: L("name = 'Rene\u0301'"), search: "name = 'Ren\u00e9'", replacement: "name = 'Anna'", expect: { content: L("name = 'Anna'"), matcher: "unicode-normalised" } },

  ]),
  ...inCategory("whitespace", [
    // --- blank lines -------------------------------------------------------------------------------
    {
      name: "search misses a blank line",
      file: L("import a", "", "import b", "x = 1"),
      search: "import a\nimport b\nx = 1",
      replacement: "import a\nimport c\nx = 1",
      expect: { content: L("import a", "import c", "x = 1"), matcher: "block-anchored" },
    },
    {
      name: "search has an extra blank line",
      file: L("def f():", "    a = 1", "    return a"),
      search: "def f():\n\n    a = 1\n    return a",
      replacement: "def f():\n    a = 2\n    return a",
      expect: { content: L("def f():", "    a = 2", "    return a"), matcher: "block-anchored" },
    },
    { name: "search wrapped in blank lines", file: L("one", "two", "three"), search: "\n\ntwo\n\n", replacement: "2", expect: { content: L("one", "2", "three"), matcher: "trimmed-boundary" } },

  ]),
  ...inCategory("whitespace", [
    // --- partial first / last line -----------------------------------------------------------------
    {
      name: "partial first line and wrong middle indentation",
      file: L("    const result = compute(a,", "        b,", "        c);"),
      search: "compute(a,\n  b,\n  c);",
      replacement: "compute(a, b, c);",
      expect: { content: L("    const result = compute(a, b, c);"), matcher: "trimmed-boundary" },
    },
    {
      name: "partial last line",
      file: L("if (ok) {", "      go();", "} else { stop(); }"),
      search: "if (ok) {\n  go();\n} else",
      replacement: "if (ready) {\n  go();\n} else",
      expect: { content: L("if (ready) {", "      go();", "} else { stop(); }"), matcher: "trimmed-boundary" },
    },

  ]),
  ...inCategory("whitespace", [
    // --- CRLF and BOM ------------------------------------------------------------------------------
    { name: "CRLF file, LF search", file: CRLF("a", "b", "c"), search: "a\nb", replacement: "A\nB", expect: { content: CRLF("A", "B", "c"), matcher: "exact" } },
    { name: "CRLF file, CRLF search", file: CRLF("a", "b"), search: "a\r\nb", replacement: "x\r\ny", expect: { content: CRLF("x", "y"), matcher: "exact" } },
    { name: "LF file, CRLF search", file: L("a", "b"), search: "a\r\nb", replacement: "x\r\ny\r\nz", expect: { content: L("x", "y", "z"), matcher: "exact" } },
    { name: "CRLF file, added lines become CRLF", file: CRLF("start", "end"), search: "start", replacement: "start\nmiddle", expect: { content: CRLF("start", "middle", "end") } },
    { name: "CRLF file with wrong indentation", file: CRLF("def f():", "    return 1"), search: "return 1", replacement: "return 2", expect: { content: CRLF("def f():", "    return 2") } },
    { name: "CRLF file with fuzzy multi-line match", file: CRLF("  a = 1", "  b = 2", "c"), search: "a = 1\nb = 2", replacement: "a = 1\nb = 3", expect: { content: CRLF("  a = 1", "  b = 3", "c"), matcher: "line-trimmed" } },
    { name: "search ending in a newline matches a last line without one", file: "a\n  b", search: "b\n", replacement: "c\n", expect: { content: "a\n  c" } },
  { name: "BOM is kept", file: "\ufeffone\ntwo\n", search: "one", replacement: "ONE", expect: { content: "\ufeffONE\ntwo\n", line: 1 } },
    { name: "BOM in search is ignored", file: "\ufeffone\ntwo\n", search: "\ufeffone\ntwo", replacement: "1\n2", expect: { content: "\ufeff1\n2\n" } },

  ]),
  ...inCategory("stale", [
    // --- small differences in the middle of a block (block-anchored) --------------------------------
    {
      name: "typo in one middle line",
      file: tsHandlers,
      search: "export function onCreate(req: Request) {\n  const user = auth(req);\n  audit('craete', user);\n  return store.create(req.body);\n}",
      replacement: "export function onCreate(req: Request) {\n  const user = auth(req);\n  audit('create', user);\n  return store.insert(req.body);\n}",
      expect: { content: tsHandlers.replace("store.create", "store.insert"), matcher: "block-anchored" },
    },
    {
      name: "one-character typo in a three-line block",
      file: L("try {", "  connect(host, port);", "} catch (e) {"),
      search: "try {\n  conect(host, port);\n} catch (e) {",
      replacement: "try {\n  connect(host, port, opts);\n} catch (e) {",
      expect: { content: L("try {", "  connect(host, port, opts);", "} catch (e) {"), matcher: "block-anchored" },
    },

  ]),
  ...inCategory("stale", [
    // --- stale views: the middle really changed (must refuse) ---------------------------------------
    {
      name: "stale middle line rewritten since the model read it",
      file: L("function total(items) {", "  return items.reduce((s, i) => s + i.price * i.qty, 0);", "}"),
      search: "function total(items) {\n  let sum = 0; for (const i of items) sum += i.price;\n}",
      replacement: "function total(items) {\n  return 0;\n}",
      expect: { refuse: "not_found" },
    },
    {
      name: "anchors match but half the middle differs",
      file: L("config {", "  host = a", "  port = 1", "  user = root", "  mode = fast", "}"),
      search: "config {\n  host = a\n  timeout = 30\n  retries = 5\n  mode = fast\n}",
      replacement: "config {\n}",
      expect: { refuse: "not_found" },
    },
    {
      name: "different variable names in a three-line block",
      file: L("for (const row of rows) {", "  emit(row.id);", "}"),
      search: "for (const row of rows) {\n  publish(entry.key);\n}",
      replacement: "for (const row of rows) {\n}",
      expect: { refuse: "not_found" },
    },
    {
      name: "not found points at the closest region",
      file: L("alpha()", "beta()", "gamma(1, 2)", "delta()"),
      search: "gamma(1, 3)\ndelta()",
      replacement: "x",
      expect: { refuse: "not_found" },
    },

  ]),
  ...inCategory("near-duplicates", [
    // --- traps: two similar blocks (must refuse, never pick one) ------------------------------------
    {
      name: "typo equally close to two handlers",
      file: tsHandlers,
      search: "  const user = auth(req);\n  audit('upcreate', user);",
      replacement: "  const user = auth(req, true);\n  audit('x', user);",
      expect: { refuse: "not_found" },
    },
    {
      name: "block that fits both functions except its name line",
      file: tsHandlers,
      search: "  const user = auth(req);\n  audit(action, user);",
      replacement: "  const user = auth(req);",
      expect: { refuse: "not_found" },
    },
    {
      name: "same lines at two indentation levels",
      file: L("a:", "  enabled: true", "  level: 1", "b:", "  c:", "    enabled: true", "    level: 1"),
      search: "enabled: true\nlevel: 1",
      replacement: "enabled: false\nlevel: 1",
      expect: { refuse: "multiple", lines: [2, 6] },
    },
    {
      name: "repeated closing line",
      file: L("if (a) {", "  x();", "}", "if (b) {", "  y();", "}"),
      search: "}",
      replacement: "} // end",
      expect: { refuse: "multiple", lines: [3, 6] },
    },
    {
      name: "repeated statement",
      file: L("function a() {", "  return null;", "}", "function b() {", "  return null;", "}"),
      search: "  return null;",
      replacement: "  return undefined;",
      expect: { refuse: "multiple", lines: [2, 5] },
    },
    {
      name: "two test cases with the same body, search without the name",
      file: L("it('adds', () => {", "  expect(sum(1, 2)).toBe(3);", "});", "it('adds again', () => {", "  expect(sum(1, 2)).toBe(3);", "});"),
      search: "  expect(sum(1, 2)).toBe(3);\n});",
      replacement: "  expect(sum(1, 2)).toBe(4);\n});",
      expect: { refuse: "multiple", lines: [2, 5] },
    },
    {
      name: "two blocks that fit the anchors but hold other numbers",
      file: L("retry {", "  attempts = 3", "}", "retry {", "  attempts = 5", "}"),
      search: "retry {\n  attempts = 4\n}",
      replacement: "retry {\n  attempts = 9\n}",
      expect: { refuse: "not_found" },
    },
    {
      name: "stale comparison operator in the middle line",
      file: L("function f() {", "  if (a > 0) return 1;", "  return 0;", "}"),
      search: "function f() {\n  if (a < 0) return 1;\n  return 0;\n}",
      replacement: "function f() {\n  if (a < 0) return -1;\n  return 0;\n}",
      expect: { refuse: "not_found" },
    },
    {
      name: "stale number in the middle line",
      file: L("const config = {", "  limit = 10,", "  name = x,", "};"),
      search: "const config = {\n  limit = 20,\n  name = x,\n};",
      replacement: "const config = {\n  limit = 20,\n  name = y,\n};",
      expect: { refuse: "not_found" },
    },
    {
      name: "stale negation in the middle line",
      file: L("if (ready) {", "  if (!ok) fail();", "  go();", "}"),
      search: "if (ready) {\n  if (ok) fail();\n  go();\n}",
      replacement: "if (ready) {\n  if (ok) retry();\n  go();\n}",
      expect: { refuse: "not_found" },
    },
    {
      name: "fuzzy match in two places with different trailing whitespace",
      file: L("value = 1 ", "other", "value = 1\t"),
      search: "value = 1",
      replacement: "value = 2",
      expect: { refuse: "multiple", lines: [1, 3] },
    },
    {
      name: "curly and straight versions of the same line",
      file: L("say(“hi”)", "say(\"hi\")"),
      search: "say(”hi”)",
      replacement: "say('bye')",
      expect: { refuse: "multiple" },
    },
    {
      name: "substring in two lines, whole line in one",
      file: L("foo", "foo.bar()"),
      search: "foo",
      replacement: "baz",
      expect: { refuse: "multiple", lines: [1, 2] },
    },
    {
      name: "exact match wins over a fuzzy look-alike",
      file: L("count  += 1", "count += 1"),
      search: "count += 1",
      replacement: "count += 2",
      expect: { content: L("count  += 1", "count += 2"), matcher: "exact", line: 2 },
    },
    {
      name: "exact duplicate blocks with replaceAll",
      file: L("  a()", "  b()", "x", "  a()", "  b()"),
      search: "a()\nb()",
      replacement: "c()",
      replaceAll: true,
      expect: { content: L("  c()", "x", "  c()"), matcher: "line-trimmed" },
    },
    {
      name: "blank-line drift too large is not one block",
      file: L("start", "", "", "", "", "", "mid", "end"),
      search: "start\nmid\nend",
      replacement: "x",
      expect: { refuse: "not_found" },
    },
  ]),
];
