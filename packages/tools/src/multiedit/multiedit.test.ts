import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { ReplaceError } from "@lathe/patch";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FileNotReadError, ToolInputError } from "../errors.js";
import { readTool } from "../read/read.js";
import { tempWorkspace, testContext } from "../test-context.js";
import { multieditTool } from "./multiedit.js";

let ws: Awaited<ReturnType<typeof tempWorkspace>>;
beforeEach(async () => {
  ws = await tempWorkspace();
});
afterEach(async () => ws.cleanup());

describe("multiedit", () => {
  it("applies edits in order, each on the result of the ones before, with one ask and one write", async () => {
    await writeFile(path.join(ws.dir, "f.txt"), "alpha\nbeta\ngamma\n");
    const ctx = testContext(ws.dir);
    await readTool.execute({ path: "f.txt" }, ctx);
    const result = await multieditTool.execute(
      { path: "f.txt", edits: [{ oldString: "alpha", newString: "ALPHA" }, { oldString: "ALPHA\nbeta", newString: "ALPHA\nBETA" }, { oldString: "a", newString: "@", replaceAll: true }] },
      ctx,
    );
    expect(await readFile(path.join(ws.dir, "f.txt"), "utf8")).toBe("ALPHA\nBETA\ng@mm@\n");
    expect(result.metadata?.edits.map((e) => e.matcher)).toEqual(["exact", "exact", "exact"]);
    expect(ctx.asks.filter((a) => a.permission === "edit")).toHaveLength(1);
    expect(ctx.events).toHaveLength(1);
  });

  it("writes nothing when one edit fails, and names it", async () => {
    await writeFile(path.join(ws.dir, "f.txt"), "alpha\nbeta\n");
    const ctx = testContext(ws.dir);
    await readTool.execute({ path: "f.txt" }, ctx);
    const error = await multieditTool
      .execute({ path: "f.txt", edits: [{ oldString: "alpha", newString: "A" }, { oldString: "missing", newString: "B" }] }, ctx)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ReplaceError);
    expect((error as Error).message).toContain("Edit 2 of 2 failed");
    expect(await readFile(path.join(ws.dir, "f.txt"), "utf8")).toBe("alpha\nbeta\n");
    expect(ctx.events).toEqual([]);
  });

  it("creates a file from a first edit with an empty oldString and edits it further", async () => {
    const ctx = testContext(ws.dir);
    await multieditTool.execute({ path: "n.txt", edits: [{ oldString: "", newString: "one\ntwo\n" }, { oldString: "two", newString: "2" }] }, ctx);
    expect(await readFile(path.join(ws.dir, "n.txt"), "utf8")).toBe("one\n2\n");
    await expect(multieditTool.execute({ path: "n.txt", edits: [{ oldString: "one", newString: "1" }, { oldString: "", newString: "x" }] }, ctx)).rejects.toBeInstanceOf(ToolInputError);
  });

  it("refuses an unread file and an empty edit list", async () => {
    await writeFile(path.join(ws.dir, "f.txt"), "alpha\n");
    await expect(multieditTool.execute({ path: "f.txt", edits: [{ oldString: "alpha", newString: "b" }] }, testContext(ws.dir))).rejects.toBeInstanceOf(FileNotReadError);
    expect(multieditTool.parameters.safeParse({ path: "f.txt", edits: [] }).success).toBe(false);
  });
});
