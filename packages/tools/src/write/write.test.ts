import { readFile, symlink, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FileModifiedError, FileNotReadError } from "../errors.js";
import { readTool } from "../read/read.js";
import { tempWorkspace, testContext } from "../test-context.js";
import { writeTool } from "./write.js";

let ws: Awaited<ReturnType<typeof tempWorkspace>>;
beforeEach(async () => {
  ws = await tempWorkspace();
});
afterEach(async () => ws.cleanup());

describe("write", () => {
  it("creates a file and its folders, asks edit with the relative path and the diff, emits file.edited", async () => {
    const ctx = testContext(ws.dir);
    const result = await writeTool.execute({ path: "a/b/new.txt", content: "hello\n" }, ctx);
    expect(await readFile(path.join(ws.dir, "a/b/new.txt"), "utf8")).toBe("hello\n");
    expect(ctx.asks).toEqual([{ permission: "edit", patterns: ["a/b/new.txt"], metadata: expect.objectContaining({ diff: expect.stringContaining("+hello") }) }]);
    expect(ctx.events).toEqual([{ type: "file.edited", file: path.join(ws.dir, "a/b/new.txt") }]);
    expect(result.metadata).toMatchObject({ additions: 1, removals: 0, existed: false });
    expect(result.metadata?.diff).toContain("--- /dev/null");
  });

  it("refuses to overwrite a file the session has not read", async () => {
    await writeFile(path.join(ws.dir, "x.txt"), "old\n");
    const ctx = testContext(ws.dir);
    await expect(writeTool.execute({ path: "x.txt", content: "new\n" }, ctx)).rejects.toBeInstanceOf(FileNotReadError);
    expect(await readFile(path.join(ws.dir, "x.txt"), "utf8")).toBe("old\n");
    expect(ctx.asks).toEqual([]);
  });

  it("overwrites after a read and returns the diff; a second write needs no new read", async () => {
    await writeFile(path.join(ws.dir, "x.txt"), "old\n");
    const ctx = testContext(ws.dir);
    await readTool.execute({ path: "x.txt" }, ctx);
    const result = await writeTool.execute({ path: "x.txt", content: "new\n" }, ctx);
    expect(result.metadata).toMatchObject({ additions: 1, removals: 1, existed: true });
    expect(result.metadata?.diff).toContain("-old\n+new");
    await writeTool.execute({ path: "x.txt", content: "newer\n" }, ctx);
    expect(await readFile(path.join(ws.dir, "x.txt"), "utf8")).toBe("newer\n");
  });

  it("refuses a file changed on disk since it was read, but not one whose mtime alone changed", async () => {
    const file = path.join(ws.dir, "x.txt");
    await writeFile(file, "old\n");
    const ctx = testContext(ws.dir);
    await readTool.execute({ path: "x.txt" }, ctx);
    await utimes(file, new Date(), new Date(Date.now() + 60_000));
    await writeTool.execute({ path: "x.txt", content: "mine\n" }, ctx);
    await writeFile(file, "theirs\n");
    await expect(writeTool.execute({ path: "x.txt", content: "again\n" }, ctx)).rejects.toBeInstanceOf(FileModifiedError);
    expect(await readFile(file, "utf8")).toBe("theirs\n");
  });

  it("does not write when denied, and writes nothing when the content is the same", async () => {
    const denied = testContext(ws.dir, { decide: () => Promise.reject(new Error("rejected")) });
    await expect(writeTool.execute({ path: "n.txt", content: "x" }, denied)).rejects.toThrow("rejected");
    await expect(readFile(path.join(ws.dir, "n.txt"))).rejects.toThrow();
    const ctx = testContext(ws.dir);
    await writeTool.execute({ path: "n.txt", content: "x" }, ctx);
    const same = await writeTool.execute({ path: "n.txt", content: "x" }, ctx);
    expect(same.output).toContain("No changes");
    expect(ctx.asks).toHaveLength(1);
  });

  it("asks external_directory for a write through a symlink that leads out, and writes nothing when denied", async () => {
    const outside = await tempWorkspace();
    try {
      await symlink(outside.dir, path.join(ws.dir, "out"));
      const ctx = testContext(ws.dir, { decide: (r) => (r.permission === "external_directory" ? Promise.reject(new Error("no")) : undefined) });
      await expect(writeTool.execute({ path: "out/evil.txt", content: "x" }, ctx)).rejects.toThrow("no");
      expect(ctx.asks[0]).toMatchObject({ permission: "external_directory", patterns: [`${outside.dir}/*`] });
      await expect(readFile(path.join(outside.dir, "evil.txt"))).rejects.toThrow();
    } finally {
      await outside.cleanup();
    }
  });

  it("serialises concurrent writes to one file", async () => {
    const ctx = testContext(ws.dir);
    const writes = Array.from({ length: 10 }, (_, i) => writeTool.execute({ path: "c.txt", content: `${i}\n`.repeat(100) }, ctx));
    await Promise.all(writes);
    const content = await readFile(path.join(ws.dir, "c.txt"), "utf8");
    expect(new Set(content.trim().split("\n")).size).toBe(1);
  });
});
