import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { asSchema } from "ai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { acceptArgumentAliases } from "./argument-aliases.js";
import { editTool } from "./edit/edit.js";
import { multieditTool } from "./multiedit/multiedit.js";
import { readTool } from "./read/read.js";
import { tempWorkspace, testContext } from "./test-context.js";
import type { Tool } from "./tool.js";
import { writeTool } from "./write/write.js";

let ws: Awaited<ReturnType<typeof tempWorkspace>>;
beforeEach(async () => {
  ws = await tempWorkspace();
});
afterEach(async () => ws.cleanup());

/** Validates `input` as the loop does (the tool's schema), then runs the tool with what validation gave. */
async function call(tool: Tool, input: unknown, ctx = testContext(ws.dir)) {
  const parsed = tool.parameters.safeParse(input);
  if (!parsed.success) throw new Error(`schema error: ${parsed.error.message}`);
  return tool.execute(parsed.data, ctx);
}

const SOURCE = "one\ntwo\nthree two\n";

async function readContext() {
  await writeFile(path.join(ws.dir, "f.txt"), SOURCE);
  const ctx = testContext(ws.dir);
  await readTool.execute({ path: "f.txt" }, ctx);
  return ctx;
}

describe("arguments under other agents' names", () => {
  const pathNames = ["file_path", "filePath", "filepath", "absolute_path", "absolutePath"];

  it.each(pathNames)("edit takes %s with old_string, new_string and replace_all", async (pathName) => {
    const ctx = await readContext();
    await call(editTool as Tool, { [pathName]: "f.txt", old_string: "two", new_string: "2", replace_all: true }, ctx);
    expect(await readFile(path.join(ws.dir, "f.txt"), "utf8")).toBe("one\n2\nthree 2\n");
  });

  it("edit with replace_all false still refuses an ambiguous match, as with replaceAll", async () => {
    await writeFile(path.join(ws.dir, "g.txt"), "a two\nb two\n");
    const ctx = testContext(ws.dir);
    await readTool.execute({ path: "g.txt" }, ctx);
    await expect(call(editTool as Tool, { file_path: "g.txt", old_string: "two", new_string: "2", replace_all: false }, ctx)).rejects.toThrow();
    expect(await readFile(path.join(ws.dir, "g.txt"), "utf8")).toBe("a two\nb two\n");
  });

  it.each(pathNames)("read takes %s (with offset and limit)", async (pathName) => {
    await writeFile(path.join(ws.dir, "f.txt"), SOURCE);
    const result = await call(readTool as Tool, { [pathName]: "f.txt", offset: 2, limit: 1 });
    expect(result.output).toContain("two");
    expect(result.output).not.toContain("one");
  });

  it.each([
    ["file_path", "content"],
    ["filePath", "content"],
    ["file_path", "contents"],
    ["path", "file_text"],
  ])("write takes %s and %s", async (pathName, contentName) => {
    await call(writeTool as Tool, { [pathName]: "new.txt", [contentName]: "hello\n" });
    expect(await readFile(path.join(ws.dir, "new.txt"), "utf8")).toBe("hello\n");
  });

  it("multiedit takes file_path and edits with snake_case keys", async () => {
    const ctx = await readContext();
    await call(
      multieditTool as Tool,
      {
        file_path: "f.txt",
        edits: [
          { old_string: "one", new_string: "1" },
          { old_string: "two", new_string: "2", replace_all: true },
        ],
      },
      ctx,
    );
    expect(await readFile(path.join(ws.dir, "f.txt"), "utf8")).toBe("1\n2\nthree 2\n");
  });

  it("prefers the canonical name when the model sends both", async () => {
    const ctx = await readContext();
    await call(editTool as Tool, { path: "f.txt", file_path: "other.txt", oldString: "one", old_string: "two", newString: "1" }, ctx);
    expect(await readFile(path.join(ws.dir, "f.txt"), "utf8")).toBe("1\ntwo\nthree two\n");
  });

  it("still rejects input that names no field it needs, naming the canonical field", () => {
    const parsed = editTool.parameters.safeParse({ file: "f.txt", old: "a", new_string: "b" });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((i) => i.path.join("."))).toEqual(expect.arrayContaining(["oldString"]));
    expect(editTool.parameters.safeParse("not an object").success).toBe(false);
    expect(editTool.parameters.safeParse(null).success).toBe(false);
  });

  it("leaves the schema shown to the model canonical: no alias appears in it", async () => {
    const expected: Record<string, string[]> = {
      edit: ["path", "oldString", "newString", "replaceAll"],
      read: ["path", "offset", "limit"],
      write: ["path", "content"],
      multiedit: ["path", "edits"],
    };
    for (const tool of [editTool, readTool, writeTool, multieditTool] as Tool[]) {
      const schema = (await asSchema(tool.parameters as never).jsonSchema) as {
        type: string;
        properties: Record<string, { items?: { properties: Record<string, unknown> } }>;
      };
      expect(schema.type).toBe("object");
      expect(Object.keys(schema.properties)).toEqual(expected[tool.name]);
      expect(JSON.stringify(schema)).not.toMatch(/file_path|old_string|snake/);
      if (tool.name === "multiedit") expect(Object.keys(schema.properties.edits!.items!.properties)).toEqual(["oldString", "newString", "replaceAll"]);
    }
  });

  it("works for any object schema: nested objects, optional arrays, and unknown keys left to the schema", () => {
    const schema = acceptArgumentAliases(
      z.strictObject({
        filePath: z.string(),
        options: z.object({ dryRun: z.boolean() }).optional(),
        items: z.array(z.object({ maxCount: z.number() })).optional(),
      }),
    );
    expect(schema.parse({ file_path: "a", options: { dry_run: true }, items: [{ max_count: 1 }] })).toEqual({
      filePath: "a",
      options: { dryRun: true },
      items: [{ maxCount: 1 }],
    });
    expect(schema.safeParse({ filePath: "a", surprise: 1 }).success).toBe(false);
  });
});
