import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { ReplaceError } from "@lathe/patch";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FileModifiedError, FileNotFoundError, FileNotReadError, NotUtf8Error, ToolInputError } from "../errors.js";
import { readTool } from "../read/read.js";
import { tempWorkspace, testContext } from "../test-context.js";
import { editTool } from "./edit.js";

let ws: Awaited<ReturnType<typeof tempWorkspace>>;
beforeEach(async () => {
  ws = await tempWorkspace();
});
afterEach(async () => ws.cleanup());

const SOURCE = "function add(a, b) {\n    return a + b;\n}\n";

async function readContext(file = "m.js", content = SOURCE) {
  await writeFile(path.join(ws.dir, file), content);
  const ctx = testContext(ws.dir);
  await readTool.execute({ path: file }, ctx);
  ctx.asks.length = 0;
  return ctx;
}

describe("edit", () => {
  it("replaces text, asks edit with the diff and names the matcher", async () => {
    const ctx = await readContext();
    const result = await editTool.execute({ path: "m.js", oldString: "return a + b;", newString: "return a - b;" }, ctx);
    expect(await readFile(path.join(ws.dir, "m.js"), "utf8")).toBe(SOURCE.replace("a + b", "a - b"));
    expect(ctx.asks).toEqual([{ permission: "edit", patterns: ["m.js"], metadata: expect.objectContaining({ diff: expect.stringContaining("+    return a - b;") }) }]);
    expect(result.metadata).toMatchObject({ matcher: "exact", lines: [2], additions: 1, removals: 1 });
    expect(result.output).toContain("matcher: exact");
    expect(ctx.events).toEqual([{ type: "file.edited", file: path.join(ws.dir, "m.js") }]);
  });

  it("forgives a slightly wrong indentation and says which matcher fired", async () => {
    const ctx = await readContext();
    const result = await editTool.execute({ path: "m.js", oldString: "function add(a, b) {\n  return a + b;\n}", newString: "function add(a, b) {\n  return a * b;\n}" }, ctx);
    const content = await readFile(path.join(ws.dir, "m.js"), "utf8");
    expect(content).toMatch(/^function add\(a, b\) \{\n +return a \* b;\n\}\n$/);
    expect(result.metadata?.matcher).not.toBe("exact");
  });

  it("replaces every occurrence with replaceAll and refuses an ambiguous edit without it", async () => {
    const ctx = await readContext("r.txt", "x = 1\nx = 1\n");
    await expect(editTool.execute({ path: "r.txt", oldString: "x = 1", newString: "x = 2" }, ctx)).rejects.toBeInstanceOf(ReplaceError);
    const result = await editTool.execute({ path: "r.txt", oldString: "x = 1", newString: "x = 2", replaceAll: true }, ctx);
    expect(result.metadata?.lines).toEqual([1, 2]);
    expect(await readFile(path.join(ws.dir, "r.txt"), "utf8")).toBe("x = 2\nx = 2\n");
  });

  it("creates a file with an empty oldString, but not over a non-empty one", async () => {
    const ctx = testContext(ws.dir);
    const result = await editTool.execute({ path: "src/new.ts", oldString: "", newString: "export {};\n" }, ctx);
    expect(await readFile(path.join(ws.dir, "src/new.ts"), "utf8")).toBe("export {};\n");
    expect(result.metadata?.matcher).toBe("created");
    await expect(editTool.execute({ path: "src/new.ts", oldString: "", newString: "again" }, ctx)).rejects.toBeInstanceOf(ToolInputError);
  });

  it("refuses unread files, externally changed files, missing files and text not found", async () => {
    await writeFile(path.join(ws.dir, "u.js"), SOURCE);
    await expect(editTool.execute({ path: "u.js", oldString: "a + b", newString: "b" }, testContext(ws.dir))).rejects.toBeInstanceOf(FileNotReadError);

    const ctx = await readContext();
    await writeFile(path.join(ws.dir, "m.js"), SOURCE + "// changed\n");
    await expect(editTool.execute({ path: "m.js", oldString: "a + b", newString: "b" }, ctx)).rejects.toBeInstanceOf(FileModifiedError);

    const missing = await editTool.execute({ path: "n.js", oldString: "a", newString: "b" }, ctx).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(FileNotFoundError);
    expect((missing as FileNotFoundError).suggestions).toContain(path.join(ws.dir, "m.js"));

    const fresh = await readContext();
    await expect(editTool.execute({ path: "m.js", oldString: "nothing like this", newString: "b" }, fresh)).rejects.toBeInstanceOf(ReplaceError);
    await expect(editTool.execute({ path: "m.js", oldString: "same", newString: "same" }, fresh)).rejects.toBeInstanceOf(ToolInputError);
    expect(await readFile(path.join(ws.dir, "m.js"), "utf8")).toBe(SOURCE);
  });

  it("refuses when the file changes while permission is asked", async () => {
    await writeFile(path.join(ws.dir, "m.js"), SOURCE);
    const ctx = testContext(ws.dir, {
      decide: async (r) => {
        if (r.permission === "edit") await writeFile(path.join(ws.dir, "m.js"), "meanwhile\n");
      },
    });
    await readTool.execute({ path: "m.js" }, ctx);
    await expect(editTool.execute({ path: "m.js", oldString: "a + b", newString: "a - b" }, ctx)).rejects.toBeInstanceOf(FileModifiedError);
    expect(await readFile(path.join(ws.dir, "m.js"), "utf8")).toBe("meanwhile\n");
  });

  it("refuses to edit a file that is not UTF-8, leaving its bytes alone", async () => {
    const latin1 = Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a, 0x78, 0x0a]);
    await writeFile(path.join(ws.dir, "l.txt"), latin1);
    const ctx = testContext(ws.dir);
    await readTool.execute({ path: "l.txt" }, ctx);
    await expect(editTool.execute({ path: "l.txt", oldString: "x", newString: "y" }, ctx)).rejects.toBeInstanceOf(NotUtf8Error);
    expect((await readFile(path.join(ws.dir, "l.txt"))).equals(latin1)).toBe(true);
  });

  it("keeps a byte-order mark", async () => {
    const ctx = await readContext("b.js", "\uFEFF" + SOURCE);
    await editTool.execute({ path: "b.js", oldString: "return a + b;", newString: "return a - b;" }, ctx);
    expect(await readFile(path.join(ws.dir, "b.js"), "utf8")).toBe("\uFEFF" + SOURCE.replace("a + b", "a - b"));
  });
});

