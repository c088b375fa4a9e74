import { it } from "vitest"; it("x", () => {});
import { replace } from "../src/index.js";
const L = (...l: string[]) => l.join("\n") + "\n";
function t(name: string, file: string, s: string, r: string, o = {}) {
  try { const x = replace(file, s, r, o); console.log(name, "OK", x.matcher, JSON.stringify(x.content)); }
  catch (e: any) { console.log(name, "ERR", e.code, JSON.stringify(e.message).slice(0, 300)); }
}
const py = L("def f(x):", "    if x:", "        y()", "    return x");
t("prefix-read", py, "     2\t    if x:\n     3\t        y()", "     2\t    if x:\n     3\t        z()");
t("prefix-read-new-unprefixed", py, "     2\t    if x:\n     3\t        y()", "    if x:\n        z()\n        w()");
t("prefix-arrow", py, "     2→    if x:\n     3→        y()", "     2→    if x:\n     3→        z()");
t("prefix-colon", py, "2:     if x:\n3:         y()", "2:     if x:\n3:         z()");
t("prefix-pipe", py, "2|    if x:\n3|        y()", "2|    if x:\n3|        z()");
t("prefix-in-new-only", py, "    if x:\n        y()", "     2\t    if x:\n     3\t        z()");
t("mixed", py, "     2\t    if x:\n        y()", "    if x:\n        z()");
t("numbered list", L("1: apples", "2: pears", "3: plums"), "1: apples\n2: pears", "1: apples\n2: figs");
t("tsv", L("1\t10", "2\t20", "3\t30"), "2\t20", "2\t25");
t("tsv2", L("1\t10", "2\t20", "3\t30"), "1\t10\n2\t20", "1\t10\n2\t21");
t("nonconsec", py, "     2\t    if x:\n     5\t        y()", "x");
t("indent 2->4", py, "if x:\n  y()", "if x:\n  y()\n  if z:\n    w()");
t("tabs->4sp", py, "\tif x:\n\t\ty()", "\tif x:\n\t\ty()\n\t\tz()");
t("py structure", L("def f(x):", "    if x:", "        y()", "    return x"), "    if x:\n        y()\n        return x", "    if x:\n        y()\n        return x + 1");
t("go tabs from 4sp", L("func main() {", "\tif a {", "\t\tb()", "\t}", "}"), "    if a {\n        b()\n    }", "    if a {\n        b()\n        c()\n    }");
t("go tabs from 2sp", L("func main() {", "\tif a {", "\t\tb()", "\t}", "}"), "  if a {\n    b()\n  }", "  if a {\n    if c {\n      d()\n    }\n  }");
t("curly kept", L("He said “hello” — then left."), 'He said "hello" - then left.', 'He said "hello" - then "bye".');
t("straight prog", L('x = "a"'), 'x = “a”', 'x = “b”');
t("nfd", L("name = 'Rene\u0301 Dupont'"), "name = 'Ren\u00e9 Dupont'", "name = 'Ren\u00e9 Martin'");
t("zw", L("const a\u200b = 1;", "b"), "const a = 1;", "const a = 2;");
t("zw inline", L("call(foo\u200bbar, 1);"), "foobar, 1", "foobar, 2");
t("tab inline", L("a\t= 1", "b\t= 2"), "a = 1\nb = 2", "a = 3\nb = 2\nc = 4");
t("esc n", L("a", "b"), "a\\nb", "a\\nc");
t("esc mixed", L('say("x")', "\tgo()"), 'say(\\"x\\")\n\\tgo()', 'say(\\"y\\")\n\\tgo()');
t("comb edge", L("cafe\u0301 au lait"), "cafe", "tea");
t("surrogate", L("a \ud83d\ude00 b", "x \ud800 y"), "x \ud800 y", "x z");
t("surrogate-split", L("a \ud83d\ude00 b"), "\ud83d", "z");
t("exact twice", L("foo", "  foo  ", "bar"), "foo", "baz");
t("zw hint", L("function handle\u200bRequest(req) {", "  return 1;", "}"), "function handleRequest(req) {\n  return 2;\n}", "x");
