// Typographic characters, Unicode forms and invisible characters: matched folded, written back in
// the file's own characters.
import { type EditCase, L, inCategory } from "./helpers.js";

const prose = L("# Guide", "", "The “quick” start — read this first.", "Don’t skip it…", "Price: 10\u00a0€");

export const UNICODE_CASES: EditCase[] = inCategory("unicode", [
  {
    name: "file's curly quotes and em dash survive a change elsewhere in the line",
    file: prose,
    search: 'The "quick" start - read this first.',
    replacement: 'The "quick" start - read this twice.',
    expect: { content: prose.replace("read this first.", "read this twice."), matcher: "unicode-normalised" },
  },
  {
    name: "new quoted text follows the file's curly quotes",
    file: prose,
    search: 'The "quick" start - read this first.',
    replacement: 'The "quick" start - read this "first".',
    expect: { content: prose.replace("read this first.", "read this “first”.") },
  },
  {
    name: "straight-quote program never gains a curly quote",
    file: L("const label = 'Save';", 'const title = "Editor";'),
    search: "const label = ‘Save’;\nconst title = “Editor”;",
    replacement: "const label = ‘Save all’;\nconst title = “Editor”;\nconst hint = “Ctrl+S”;",
    expect: { content: L("const label = 'Save all';", 'const title = "Editor";', 'const hint = "Ctrl+S";') },
  },
  {
    name: "non-breaking space kept where the model typed a space",
    file: prose,
    search: "Price: 10 €",
    replacement: "Price: 12 €",
    expect: { content: prose.replace("Price: 10\u00a0€", "Price: 12\u00a0€") },
  },
  {
    name: "decomposed accents stay decomposed, new ones follow",
    file: L("author = 'Rene\u0301e'", "city = 'Orle\u0301ans'"),
    search: "author = 'Ren\u00e9e'\ncity = 'Orl\u00e9ans'",
    replacement: "author = 'Ren\u00e9e'\ncity = 'S\u00e8te'",
    expect: { content: L("author = 'Rene\u0301e'", "city = 'Se\u0300te'") },
  },
  {
    name: "zero-width space inside a line is folded and kept",
    file: L("const api\u200bKey = load();", "use(apiKey);"),
    search: "const apiKey = load();",
    replacement: "const apiKey = load() ?? '';",
    expect: { content: L("const api\u200bKey = load() ?? '';", "use(apiKey);"), matcher: "unicode-normalised" },
  },
  {
    name: "word joiner and BOM inside a line folded in a substring match",
    file: L("title: Intro\u2060duction \ufeffto Lathe"),
    search: "Introduction to",
    replacement: "Introduction into",
    expect: { content: L("title: Intro\u2060duction \ufeffinto Lathe") },
  },
  {
    name: "combining mark after the match end is not split",
    file: L("menu: cafe\u0301 noir"),
    search: "menu: cafe",
    replacement: "menu: tea",
    expect: { refuse: "not_found" },
  },
  {
    name: "combining mark at the start of the search is not matched alone",
    file: L("name: Jose\u0301"),
    search: "\u0301",
    replacement: "",
    expect: { refuse: "not_found" },
  },
  {
    name: "half a surrogate pair is not a match",
    file: L("status: \ud83d\ude00 done"),
    search: "\ud83d",
    replacement: "x",
    expect: { refuse: "not_found" },
  },
  {
    name: "lone surrogate in the file matched and replaced exactly",
    file: L("bad = '\ud800'", "ok = 1"),
    search: "bad = '\ud800'",
    replacement: "bad = ''",
    expect: { content: L("bad = ''", "ok = 1"), matcher: "exact" },
  },
  {
    name: "tab inside a line kept where the model typed a space",
    file: L("NAME\t= api", "PORT\t= 80"),
    search: "NAME = api\nPORT = 80",
    replacement: "NAME = api\nPORT = 8080",
    expect: { content: L("NAME\t= api", "PORT\t= 8080") },
  },
  {
    name: "en dash and ellipsis in file, ASCII in search, whole line rewritten",
    file: L("Pages 10–12…", "end"),
    search: "Pages 10-12...\nend",
    replacement: "Pages 10-14...\nend",
    expect: { content: L("Pages 10–14…", "end") },
  },
  {
    name: "CRLF file with curly quotes, new lines CRLF and curly",
    file: "say “hi”\r\nend\r\n",
    search: 'say "hi"\nend',
    replacement: 'say "yo"\nend\nsay "bye"',
    expect: { content: "say “yo”\r\nend\r\nsay “bye”\r\n" },
  },
  {
    name: "program with one curly apostrophe gains no curly string delimiters",
    file: L("const hint = 'Don’t panic';", "const name = 'x';"),
    search: "const hint = 'Don't panic';",
    replacement: "const hint = 'Don't panic';\nconst more = 'Keep calm';",
    expect: { content: L("const hint = 'Don’t panic';", "const more = 'Keep calm';", "const name = 'x';") },
  },
  {
    name: "spread syntax is not taken for an ellipsis",
    file: L("// Loading…", "call(a);"),
    search: "// Loading...\ncall(a);",
    replacement: "// Loading...\ncall(...args);",
    expect: { content: L("// Loading…", "call(...args);") },
  },
]);
