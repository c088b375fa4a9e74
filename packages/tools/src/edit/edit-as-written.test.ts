// The edit tool with edits as models write them: text copied from the read tool's numbered view,
// another indentation width, the file's typographic characters.
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { ReplaceError } from "@lathe/patch";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { multieditTool } from "../multiedit/multiedit.js";
import { readTool } from "../read/read.js";
import { tempWorkspace, testContext } from "../test-context.js";
import { editTool } from "./edit.js";

let ws: Awaited<ReturnType<typeof tempWorkspace>>;
beforeEach(async () => {
  ws = await tempWorkspace();
});
afterEach(async () => ws.cleanup());

const PY = "def area(r):\n    if r < 0:\n        raise ValueError(r)\n    return 3.14 * r * r\n";

async function readView(file: string, content: string) {
  await writeFile(path.join(ws.dir, file), content);
  const ctx = testContext(ws.dir);
  const view = await readTool.execute({ path: file }, ctx);
  return { ctx, lines: view.output.split("\n") };
}

describe("edit as models write it", () => {
  it("takes oldString and newString copied from read's numbered view and writes no prefix", async () => {
    const { ctx, lines } = await readView("a.py", PY);
    const oldString = lines.slice(1, 3).join("\n");
    expect(oldString).toBe("     2\t    if r < 0:\n     3\t        raise ValueError(r)");
    const result = await editTool.execute({ path: "a.py", oldString, newString: oldString.replace("ValueError(r)", "ValueError(f'negative: {r}')") }, ctx);
    expect(await readFile(path.join(ws.dir, "a.py"), "utf8")).toBe(PY.replace("ValueError(r)", "ValueError(f'negative: {r}')"));
    expect(result.metadata?.lines).toEqual([2]);
    expect(result.output).toMatch(/line-number prefixes copied from read were left out/);
  });

  it("refuses a newString carrying read's prefixes when oldString has none", async () => {
    const { ctx, lines } = await readView("a.py", PY);
    const error = await editTool.execute({ path: "a.py", oldString: "    return 3.14 * r * r", newString: lines[3]!.replace("3.14", "math.pi") }, ctx).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ReplaceError);
    expect((error as ReplaceError).code).toBe("line_number_prefix");
    expect(await readFile(path.join(ws.dir, "a.py"), "utf8")).toBe(PY);
  });

  it("re-indents a 2-space replacement into the file's 4 spaces and refuses a changed nesting", async () => {
    const { ctx } = await readView("a.py", PY);
    await editTool.execute({ path: "a.py", oldString: "if r < 0:\n  raise ValueError(r)", newString: "if r < 0:\n  log(r)\n  raise ValueError(r)" }, ctx);
    const after = "def area(r):\n    if r < 0:\n        log(r)\n        raise ValueError(r)\n    return 3.14 * r * r\n";
    expect(await readFile(path.join(ws.dir, "a.py"), "utf8")).toBe(after);
    const error = await editTool
      .execute({ path: "a.py", oldString: "    if r < 0:\n        log(r)\n        raise ValueError(r)\n        return 3.14 * r * r", newString: "    if r < 0:\n        log(r)\n        raise ValueError(r)\n        return 0" }, ctx)
      .catch((e: unknown) => e);
    expect((error as ReplaceError).code).toBe("indentation_mismatch");
    expect(await readFile(path.join(ws.dir, "a.py"), "utf8")).toBe(after);
  });

  it("keeps the file's curly quotes through multiedit", async () => {
    const { ctx } = await readView("doc.md", "He said “yes” — twice.\nShe said “no”.\n");
    await multieditTool.execute(
      {
        path: "doc.md",
        edits: [
          { oldString: 'He said "yes" - twice.', newString: 'He said "yes" - three times.' },
          { oldString: 'She said "no".', newString: 'She said "no" and "never".' },
        ],
      },
      ctx,
    );
    expect(await readFile(path.join(ws.dir, "doc.md"), "utf8")).toBe("He said “yes” — three times.\nShe said “no” and “never”.\n");
  });

  it("refuses a lazy newString whose // ... existing code ... stands for real lines, through edit and multiedit", async () => {
    const JS = "function total(items) {\n  let sum = 0;\n  for (const i of items) sum += i.price;\n  return sum;\n}\n";
    const { ctx } = await readView("a.js", JS);
    const lazy = { oldString: JS.trimEnd(), newString: "function total(items, tax) {\n  // ... existing code ...\n  return sum * tax;\n}" };
    const error = await editTool.execute({ path: "a.js", ...lazy }, ctx).catch((e: unknown) => e);
    expect((error as ReplaceError).code).toBe("elision");
    expect((error as ReplaceError).message).toContain('newString line 2 ("// ... existing code ...")');
    const multi = await multieditTool.execute({ path: "a.js", edits: [lazy, { oldString: "let sum = 0;", newString: "let sum = 1;" }] }, ctx).catch((e: unknown) => e);
    expect((multi as ReplaceError).code).toBe("elision");
    expect((multi as ReplaceError).message).toMatch(/^Edit 1 of 2 failed/);
    expect(await readFile(path.join(ws.dir, "a.js"), "utf8")).toBe(JS);
  });

  it("writes numbered content and strips Codex's and grep's views", async () => {
    const { ctx } = await readView("plan.yaml", "ports:\n  # none\nname: web\n");
    await editTool.execute({ path: "plan.yaml", oldString: "  # none", newString: "  8080: web\n  8081: api" }, ctx);
    await editTool.execute({ path: "plan.yaml", oldString: "L4: name: web", newString: "L4: name: api" }, ctx);
    await editTool.execute({ path: "plan.yaml", oldString: "plan.yaml:3:  8081: api", newString: "plan.yaml:3:  8081: admin" }, ctx);
    expect(await readFile(path.join(ws.dir, "plan.yaml"), "utf8")).toBe("ports:\n  8080: web\n  8081: admin\nname: api\n");
  });
});
