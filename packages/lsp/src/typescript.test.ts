import path from "node:path";
import { applyPatchTool, diagnosticsTool, editTool, multieditTool, writeTool } from "@lathe/tools";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLsp, type Lsp } from "./index.js";
import { waitGone } from "./test-processes.js";
import { workspace, type Workspace } from "./workspace.test-support.js";

// One workspace and one warm TypeScript server (typescript-language-server + typescript from npm) for the file.
const MATH = "export function add(a: number, b: number): number {\n  return a + b;\n}\n";
const MAIN = 'import { add } from "./math";\n\nexport const total: number = add(1, 2);\n';

let lsp: Lsp;
let ws: Workspace;
beforeAll(async () => {
  lsp = createLsp({ timeoutMs: 30_000 });
  ws = await workspace(lsp, {
    "tsconfig.json": JSON.stringify({ compilerOptions: { strict: true, noEmit: true, target: "es2022", module: "nodenext" } }),
    "package.json": JSON.stringify({ name: "fixture", type: "module" }),
    "src/math.ts": MATH,
    "src/main.ts": MAIN.replace('"./math"', '"./math.js"'),
  });
  await lsp.sync([path.join(ws.dir, "src/main.ts")], { cwd: ws.dir });
});
afterAll(async () => {
  const pids = lsp.pids();
  await lsp.close();
  expect(await waitGone(pids, 5000)).toEqual([]);
  await ws.cleanup();
});

const main = () => path.join(ws.dir, "src/main.ts");

describe("diagnostics from the TypeScript server after file changes", () => {
  it("an edit that introduces a type error gets its message in the result; the fix clears it", async () => {
    const broken = await editTool.execute({ path: "src/main.ts", oldString: "add(1, 2)", newString: 'add(1, "2")' }, ws.ctx);
    expect(broken.output).toContain("Language server errors");
    expect(broken.output).toContain(`src/main.ts:3:37 error TS2345: Argument of type 'string' is not assignable to parameter of type 'number'.`);
    expect(broken.metadata?.diagnostics?.[main()]).toEqual([expect.objectContaining({ line: 3, column: 37, severity: "error", code: 2345, source: "typescript" })]);

    const fixed = await editTool.execute({ path: "src/main.ts", oldString: 'add(1, "2")', newString: "add(1, 2)" }, ws.ctx);
    expect(fixed.output).not.toContain("Language server errors");
    expect(fixed.output).not.toContain("TS2345");
    expect(fixed.metadata?.diagnostics).toBeUndefined();
  });

  it("multiedit reports errors, capped per file with a count of the rest", async () => {
    const lines = Array.from({ length: 12 }, (_, i) => `export const v${i}: number = "${i}";`).join("\n");
    const result = await multieditTool.execute({ path: "src/many.ts", edits: [{ oldString: "", newString: `${lines}\n` }] }, ws.ctx);
    expect(result.output.match(/error TS2322/g)).toHaveLength(10);
    expect(result.output).toContain("… and 2 more errors in src/many.ts");
    expect(result.metadata?.diagnostics?.[path.join(ws.dir, "src/many.ts")]).toHaveLength(12);
    await writeTool.execute({ path: "src/many.ts", content: "export {};\n" }, ws.ctx);
  });

  it("a patch across two files reports the errors of both", async () => {
    const patchText = [
      "*** Begin Patch",
      "*** Update File: src/math.ts",
      "@@",
      "-export function add(a: number, b: number): number {",
      "-  return a + b;",
      "+export function add(a: number, b: number): string {",
      "+  return a + b;",
      "*** Add File: src/extra.ts",
      '+export const name: string = 42;',
      "*** End Patch",
    ].join("\n");
    const result = await applyPatchTool.execute({ patchText }, ws.ctx);
    expect(result.output).toContain("src/math.ts:2:3 error TS2322: Type 'number' is not assignable to type 'string'.");
    expect(result.output).toContain("src/extra.ts:1:14 error TS2322: Type 'number' is not assignable to type 'string'.");
    const undo = "*** Begin Patch\n*** Update File: src/math.ts\n@@\n-export function add(a: number, b: number): string {\n+export function add(a: number, b: number): number {\n*** Delete File: src/extra.ts\n*** End Patch";
    const restored = await applyPatchTool.execute({ patchText: undo }, ws.ctx);
    expect(restored.output).not.toContain("Language server errors");
  });

  it("write of a rename that breaks an importer reports the new error in the importer", async () => {
    const result = await writeTool.execute({ path: "src/math.ts", content: MATH.replace("add", "sum") }, ws.ctx);
    expect(result.output).toContain("New errors in other files:");
    expect(result.output).toMatch(/src\/main\.ts:1:10 error TS2305: Module '"\.\/math\.js"' has no exported member 'add'\./);
    expect(result.metadata?.diagnostics?.[main()]).toEqual([expect.objectContaining({ code: 2305 })]);

    const diagnostics = await diagnosticsTool.execute({ path: "src/main.ts" }, ws.ctx);
    expect(diagnostics.output).toMatch(/^1 error and 0 warnings in src\/main\.ts:\nsrc\/main\.ts:1:10 error TS2305/);
    const all = await diagnosticsTool.execute({}, ws.ctx);
    expect(all.output).toContain("in the open files:");
    expect(all.metadata?.errors).toBeGreaterThanOrEqual(1);

    const back = await writeTool.execute({ path: "src/math.ts", content: MATH }, ws.ctx);
    expect(back.output).not.toContain("New errors");
    const clean = await diagnosticsTool.execute({ path: "src/main.ts" }, ws.ctx);
    expect(clean.output).toBe("No errors or warnings in src/main.ts.");
  });

  it("a file no server handles gets no diagnostics and no delay", async () => {
    const started = Date.now();
    const result = await writeTool.execute({ path: "notes.txt", content: "hello\n" }, ws.ctx);
    expect(result.output).toBe("Created notes.txt (6 bytes, +1 -0 lines).");
    expect(Date.now() - started).toBeLessThan(500);
    const asked = await diagnosticsTool.execute({ path: "notes.txt" }, ws.ctx);
    expect(asked.output).toMatch(/^No language server checks notes\.txt/);
  });
});
