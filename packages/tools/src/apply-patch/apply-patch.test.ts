import { mkdir, readFile, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { PatchApplyError, PatchParseError, PatchPathError } from "@lathe/patch";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tempWorkspace, testContext } from "../test-context.js";
import { applyPatchTool } from "./apply-patch.js";

let ws: Awaited<ReturnType<typeof tempWorkspace>>;
beforeEach(async () => {
  ws = await tempWorkspace();
  await mkdir(path.join(ws.dir, "src"));
  await writeFile(path.join(ws.dir, "src/a.ts"), "const a = 1;\nconst b = 2;\nconst c = 3;\n");
  await writeFile(path.join(ws.dir, "old.txt"), "bye\n");
  await writeFile(path.join(ws.dir, "move.txt"), "one\ntwo\n");
});
afterEach(async () => ws.cleanup());

const PATCH = `*** Begin Patch
*** Add File: docs/new.md
+# New
*** Update File: src/a.ts
@@
 const a = 1;
-const b = 2;
+const b = 20;
 const c = 3;
*** Delete File: old.txt
*** Update File: move.txt
*** Move to: moved/here.txt
@@
 one
-two
+2
*** End Patch`;

const read = (p: string) => readFile(path.join(ws.dir, p), "utf8");

describe("apply_patch", () => {
  it("applies adds, updates, deletes and moves with one ask covering every path, and lists A/M/D", async () => {
    const ctx = testContext(ws.dir);
    const result = await applyPatchTool.execute({ patchText: PATCH }, ctx);
    expect(result.output).toBe(
      "Success. Updated the following files:\nA docs/new.md\nM src/a.ts\nD old.txt\nM moved/here.txt (moved from move.txt)",
    );
    expect(await read("docs/new.md")).toBe("# New\n");
    expect(await read("src/a.ts")).toBe("const a = 1;\nconst b = 20;\nconst c = 3;\n");
    await expect(read("old.txt")).rejects.toThrow();
    await expect(read("move.txt")).rejects.toThrow();
    expect(await read("moved/here.txt")).toBe("one\n2\n");
    expect(ctx.asks).toHaveLength(1);
    expect(ctx.asks[0]).toMatchObject({ permission: "edit", patterns: ["docs/new.md", "src/a.ts", "old.txt", "move.txt", "moved/here.txt"] });
    expect(String(ctx.asks[0]!.metadata?.diff)).toContain("+const b = 20;");
    expect(result.metadata).toMatchObject({ additions: 3, removals: 3 });
    expect(ctx.events.map((e) => (e.type === "file.edited" ? path.relative(ws.dir, e.file) : ""))).toEqual([
      "docs/new.md",
      "src/a.ts",
      "old.txt",
      "move.txt",
      "moved/here.txt",
    ]);
  });

  it("changes nothing when one chunk does not fit", async () => {
    const bad = PATCH.replace(" const c = 3;", " const c = 999;");
    const ctx = testContext(ws.dir);
    await expect(applyPatchTool.execute({ patchText: bad }, ctx)).rejects.toBeInstanceOf(PatchApplyError);
    expect(ctx.asks).toEqual([]);
    await expect(read("docs/new.md")).rejects.toThrow();
    expect(await read("old.txt")).toBe("bye\n");
    expect(await read("src/a.ts")).toContain("const b = 2;");
  });

  it("writes nothing when permission is rejected", async () => {
    const ctx = testContext(ws.dir, { decide: () => Promise.reject(new Error("rejected")) });
    await expect(applyPatchTool.execute({ patchText: PATCH }, ctx)).rejects.toThrow("rejected");
    expect(await read("old.txt")).toBe("bye\n");
  });

  it("rejects malformed patches; asks external_directory (like write) for paths that leave the workspace, also through symlinks", async () => {
    await expect(applyPatchTool.execute({ patchText: "*** Begin Patch\nnonsense\n*** End Patch" }, testContext(ws.dir))).rejects.toBeInstanceOf(PatchParseError);
    await expect(applyPatchTool.execute({ patchText: "" }, testContext(ws.dir))).rejects.toThrow("empty");
    const refuseOutside = (request: { permission: string }) => {
      if (request.permission === "external_directory") throw new Error("denied: outside");
    };
    const outside = await tempWorkspace();
    try {
      const parentName = path.basename(outside.dir);
      const escape = `*** Begin Patch\n*** Add File: ../${parentName}/escape.txt\n+x\n*** End Patch`;
      const denied = testContext(ws.dir, { decide: refuseOutside });
      await expect(applyPatchTool.execute({ patchText: escape }, denied)).rejects.toThrow("denied: outside");
      expect(denied.asks[0]).toMatchObject({ permission: "external_directory", patterns: [`${outside.dir}/*`] });
      await symlink(outside.dir, path.join(ws.dir, "out"));
      const viaLink = "*** Begin Patch\n*** Add File: out/evil.txt\n+x\n*** End Patch";
      await expect(applyPatchTool.execute({ patchText: viaLink }, testContext(ws.dir, { decide: refuseOutside }))).rejects.toThrow("denied: outside");
      await expect(readFile(path.join(outside.dir, "evil.txt"))).rejects.toThrow();
      // Approved, the outside file is written, and edit is asked with its real absolute path.
      const allowed = testContext(ws.dir);
      const result = await applyPatchTool.execute({ patchText: viaLink }, allowed);
      expect(result.output).toContain(`A ${outside.dir}/evil.txt`);
      expect(allowed.asks.map((a) => [a.permission, a.patterns])).toEqual([
        ["external_directory", [`${outside.dir}/*`]],
        ["edit", [`${outside.dir}/evil.txt`]],
      ]);
      expect(await readFile(path.join(outside.dir, "evil.txt"), "utf8")).toBe("x\n");
    } finally {
      await outside.cleanup();
    }
  });

  it("accepts absolute paths inside the workspace", async () => {
    const patch = `*** Begin Patch\n*** Update File: ${path.join(ws.dir, "src/a.ts")}\n@@\n-const a = 1;\n+const a = 10;\n*** End Patch`;
    const result = await applyPatchTool.execute({ patchText: patch }, testContext(ws.dir));
    expect(result.output).toContain("M src/a.ts");
    expect(await read("src/a.ts")).toContain("const a = 10;");
  });
});
