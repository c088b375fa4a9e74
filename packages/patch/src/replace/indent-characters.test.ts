// Classes 4 and 5 of issue 33: kernel-style indentation (tabs for levels, spaces for alignment)
// written by the model in spaces maps levels and keeps the file's alignment; indentation made of
// other characters (U+3000, NBSP) stays the file's own characters in new lines.
import { describe, expect, it } from "vitest";
import { replace } from "../index.js";
import { L } from "./corpus/helpers.js";
import { refusal } from "./expect-refusal.js";

const show = (s: string): string => s.replace(/\t/g, "→").replace(/\u3000/g, "□").replace(/\u00a0/g, "⍽");

describe("tabs for levels, spaces for alignment (kernel style)", () => {
  const c = L(
    "static int probe(struct device *dev,",
    "\t\t const struct id *id)",
    "{",
    "\tif (dev->flags &&",
    "\t    id->flags)",
    "\t\treturn -EINVAL;",
    "\treturn 0;",
    "}",
  );

  it("maps a search written with 4-space tabs: new continuation lines keep the alignment, statements the levels", () => {
    const out = replace(c, "    if (dev->flags &&\n        id->flags)\n        return -EINVAL;", "    if (dev->flags &&\n        id->flags &&\n        id->mask)\n        return -EBUSY;\n    dev->ready = 1;");
    expect(show(out.content)).toBe(
      show(L("static int probe(struct device *dev,", "\t\t const struct id *id)", "{", "\tif (dev->flags &&", "\t    id->flags &&", "\t    id->mask)", "\t\treturn -EBUSY;", "\tdev->ready = 1;", "\treturn 0;", "}")),
    );
  });

  it("maps a search written with 8-space tabs", () => {
    const out = replace(c, "        if (dev->flags &&\n            id->flags)\n                return -EINVAL;", "        if (dev->flags &&\n            id->flags)\n                return -EBUSY;\n        pr_info(\"ok\\n\");");
    expect(show(out.content)).toBe(show(c.replace("\t\treturn -EINVAL;\n\treturn 0;", '\t\treturn -EBUSY;\n\tpr_info("ok\\n");\n\treturn 0;')));
  });

  it("maps a search that wrote a tab where the file aligns with spaces", () => {
    const out = replace(c, "\tif (dev->flags &&\n\t\tid->flags)\n\t\treturn -EINVAL;", "\tif (dev->flags &&\n\t\tid->flags &&\n\t\tid->mask)\n\t\treturn -EINVAL;");
    expect(show(out.content)).toContain(show("\tif (dev->flags &&\n\t    id->flags &&\n\t    id->mask)\n\t\treturn -EINVAL;"));
  });

  it("keeps a signature's alignment when a parameter line is added", () => {
    const out = replace(c, "static int probe(struct device *dev,\n                 const struct id *id)", "static int probe(struct device *dev,\n                 const struct id *id,\n                 unsigned int flags)");
    expect(show(out.content)).toContain(show("\t\t const struct id *id,\n\t\t unsigned int flags)"));
  });

  it("still maps a search copied with the tabs but without the leading level", () => {
    const out = replace(c, "if (dev->flags &&\n    id->flags)\n\treturn -EINVAL;", "if (dev->flags ||\n    id->flags)\n\treturn -EINVAL;");
    expect(out.content).toContain("\tif (dev->flags ||\n\t    id->flags)\n\t\treturn -EINVAL;");
  });

  it("maps Go (gofmt tabs, aligned struct fields) written in spaces", () => {
    const go = L("type Config struct {", "\tName    string", "\tTimeout int", "}");
    const out = replace(go, "    Name    string\n    Timeout int", "    Name    string\n    Timeout int\n    Retries int");
    expect(show(out.content)).toBe(show(L("type Config struct {", "\tName    string", "\tTimeout int", "\tRetries int", "}")));
  });

  it("refuses when no tab width makes the columns agree (the nesting differs)", () => {
    const error = refusal(() => replace(c, "    if (dev->flags &&\n      id->flags)\n    return -EINVAL;", "x"));
    expect(error.code).toBe("indentation_mismatch");
  });
});

describe("indentation made of other characters", () => {
  it("keeps U+3000 ideographic spaces in CJK prose (new paragraphs indented like the others)", () => {
    const text = L("第一章", "\u3000\u3000これは本文です。", "\u3000\u3000次の段落。");
    const out = replace(text, "  これは本文です。\n  次の段落。", "  これは本文です。\n  追加の段落。\n  次の段落。");
    expect(show(out.content)).toBe(show(L("第一章", "\u3000\u3000これは本文です。", "\u3000\u3000追加の段落。", "\u3000\u3000次の段落。")));
  });

  it("keeps U+3000 in Chinese text edited with one ASCII space per ideographic space at any depth", () => {
    const text = L("目录", "\u3000一、总则", "\u3000\u3000第一条", "\u3000二、附则");
    const out = replace(text, " 一、总则\n  第一条", " 一、总则\n  第一条\n  第二条");
    expect(show(out.content)).toBe(show(L("目录", "\u3000一、总则", "\u3000\u3000第一条", "\u3000\u3000第二条", "\u3000二、附则")));
  });

  it("keeps NBSP indentation in Markdown lists and HTML copied from the web", () => {
    const md = L("Liste :", "\u00a0\u00a0- pommes", "\u00a0\u00a0\u00a0\u00a0- vertes", "\u00a0\u00a0- poires");
    const out = replace(md, "  - pommes\n    - vertes", "  - pommes\n    - vertes\n    - rouges\n  - prunes");
    expect(show(out.content)).toBe(show(L("Liste :", "\u00a0\u00a0- pommes", "\u00a0\u00a0\u00a0\u00a0- vertes", "\u00a0\u00a0\u00a0\u00a0- rouges", "\u00a0\u00a0- prunes", "\u00a0\u00a0- poires")));
    const html = L("<p>", "\u00a0\u00a0<b>Hi</b>", "</p>");
    expect(show(replace(html, "  <b>Hi</b>", "  <b>Hi</b>\n  <i>there</i>").content)).toBe(show(L("<p>", "\u00a0\u00a0<b>Hi</b>", "\u00a0\u00a0<i>there</i>", "</p>")));
  });

  it("keeps ASCII indentation where the file has it (YAML, Python)", () => {
    const yaml = L("a:", "  b: 1");
    expect(replace(yaml, "  b: 1", "  b: 1\n  c: 2").content).toBe(L("a:", "  b: 1", "  c: 2"));
    const py = L("def f():", "    return 1");
    expect(replace(py, "def f():\n  return 1", "def f():\n  x = 1\n  return x").content).toBe(L("def f():", "    x = 1", "    return x"));
  });
});
