import { mkdir, symlink } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { applyPatchTool, editTool, writeTool } from "@lathe/tools";
import { afterEach, describe, expect, it } from "vitest";
import { createLsp, type LspOptions } from "./index.js";
import { workspace, type Workspace } from "./workspace.test-support.js";

const prettierBin = path.join(path.dirname(createRequire(import.meta.url).resolve("prettier/package.json")), "bin/prettier.cjs");
const NO_SERVERS = { typescript: false, pyright: false, gopls: false, "rust-analyzer": false } as const;

let ws: Workspace | undefined;
afterEach(async () => ws?.cleanup());

/** A workspace with prettier configured (no semicolons, single quotes) and installed locally. */
async function prettierWorkspace(options: LspOptions = {}, config = true): Promise<Workspace> {
  ws = await workspace(createLsp({ servers: NO_SERVERS, ...options }), config ? { ".prettierrc": JSON.stringify({ semi: false, singleQuote: true }) } : {});
  await mkdir(path.join(ws.dir, "node_modules/.bin"), { recursive: true });
  await symlink(prettierBin, path.join(ws.dir, "node_modules/.bin/prettier"));
  return ws;
}

describe("formatters after writes", () => {
  it("prettier formats what write wrote: the file, the diff and the read record all hold the formatted text", async () => {
    const w = await prettierWorkspace();
    const result = await writeTool.execute({ path: "src/a.ts", content: 'export const  x = {a:1,b:"two"};\n' }, w.ctx);
    expect(await w.read("src/a.ts")).toBe("export const x = { a: 1, b: 'two' }\n");
    expect(result.metadata?.diff).toContain("+export const x = { a: 1, b: 'two' }");
    expect(result.metadata?.diff).not.toContain('"two"');
    expect(result.metadata?.formatted).toEqual({ [path.join(w.dir, "src/a.ts")]: "prettier" });
    expect(result.output).toContain("Note: Formatted src/a.ts (prettier)");
    // The next edit works on the formatted content: not refused as "modified since read".
    const edit = await editTool.execute({ path: "src/a.ts", oldString: "b: 'two'", newString: "b:   'three'" }, w.ctx);
    expect(await w.read("src/a.ts")).toBe("export const x = { a: 1, b: 'three' }\n");
    expect(edit.metadata?.diff).toContain("+export const x = { a: 1, b: 'three' }");
    expect(edit.metadata).toMatchObject({ additions: 1, removals: 1 });
  });

  it("apply_patch output is formatted, and the patch's per-file diffs follow", async () => {
    const w = await prettierWorkspace();
    const result = await applyPatchTool.execute({ patchText: '*** Begin Patch\n*** Add File: b.js\n+const  y = "q";\n*** End Patch' }, w.ctx);
    expect(await w.read("b.js")).toBe("const y = 'q'\n");
    expect(result.metadata?.files[0]?.diff).toContain("+const y = 'q'");
    expect(result.metadata?.diff).toContain("+const y = 'q'");
  });

  it("without a prettier config, or with formatters off, nothing is formatted", async () => {
    const bare = await prettierWorkspace({}, false);
    await writeTool.execute({ path: "a.ts", content: "const  x = 1;\n" }, bare.ctx);
    expect(await bare.read("a.ts")).toBe("const  x = 1;\n");
    await bare.cleanup();
    const off = await prettierWorkspace({ formatters: false });
    await writeTool.execute({ path: "a.ts", content: "const  x = 1;\n" }, off.ctx);
    expect(await off.read("a.ts")).toBe("const  x = 1;\n");
  });

  it("a host command formats its extensions; one that fails leaves the file as written, with a note", async () => {
    ws = await workspace(createLsp({ servers: NO_SERVERS, formatters: { upper: { command: ["tr", "a-z", "A-Z"], extensions: [".txt"] }, broken: { command: ["sh", "-c", "echo nope >&2; exit 2"], extensions: [".md"] } } }), {});
    await writeTool.execute({ path: "a.txt", content: "shout\n" }, ws.ctx);
    expect(await ws.read("a.txt")).toBe("SHOUT\n");
    const failed = await writeTool.execute({ path: "a.md", content: "# keep\n" }, ws.ctx);
    expect(await ws.read("a.md")).toBe("# keep\n");
    expect(failed.output).toContain("Note: The formatter failed on a.md: it exited with code 2: nope");
  });

  it("refuses a malformed formatter config", () => {
    expect(() => createLsp({ formatters: { x: { command: ["x"], extensions: ["txt"] } } })).toThrow();
  });
});
