import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FileNotFoundError, InvalidPathError } from "../errors.js";
import { tempWorkspace, testContext } from "../test-context.js";
import { listTool } from "./list.js";

let ws: Awaited<ReturnType<typeof tempWorkspace>>;
beforeEach(async () => {
  ws = await tempWorkspace();
  for (const file of ["src/a.ts", "src/lib/b.ts", "README.md", "node_modules/x/index.js", "dist/out.js", ".git/HEAD", "app.log", "target/t", "docs/guide.md"]) {
    await mkdir(path.dirname(path.join(ws.dir, file)), { recursive: true });
    await writeFile(path.join(ws.dir, file), "");
  }
  await writeFile(path.join(ws.dir, ".gitignore"), "*.log\n");
});
afterEach(async () => ws.cleanup());

describe("list", () => {
  it("shows an indented tree, folders first, without default-ignored folders or gitignored files", async () => {
    const result = await listTool.execute({}, testContext(ws.dir));
    expect(result.output).toBe(
      [`${ws.dir}/`, "  docs/", "    guide.md", "  src/", "    lib/", "      b.ts", "    a.ts", "  .gitignore", "  README.md"].join("\n"),
    );
    expect(result.metadata).toEqual({ count: 5, truncated: false });
  });

  it("takes extra ignore patterns and a subfolder", async () => {
    const result = await listTool.execute({ path: "src", ignore: ["lib/"] }, testContext(ws.dir));
    expect(result.output).toBe(`${path.join(ws.dir, "src")}/\n  a.ts`);
  });

  it("lists at most 100 files, nearer folders first, with a note", async () => {
    for (let i = 0; i < 150; i++) await writeFile(path.join(ws.dir, `f${String(i).padStart(3, "0")}.txt`), "");
    const result = await listTool.execute({}, testContext(ws.dir));
    expect(result.metadata).toEqual({ count: 100, truncated: true });
    expect(result.output).toContain("Showing the first 100 files");
    expect(result.output).not.toContain("guide.md");
  });

  it("rejects a missing folder and a file", async () => {
    await expect(listTool.execute({ path: "nope" }, testContext(ws.dir))).rejects.toBeInstanceOf(FileNotFoundError);
    await expect(listTool.execute({ path: "README.md" }, testContext(ws.dir))).rejects.toBeInstanceOf(InvalidPathError);
  });
});
