import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Diagnostic, Diagnostics, DiagnosticsReport } from "./diagnostics.js";
import { recordCurrent } from "./read-guard.js";
import { tempWorkspace, testContext, type TestContext } from "./test-context.js";
import { editTool } from "./edit/edit.js";
import { writeTool } from "./write/write.js";

// afterWrite against a scripted Diagnostics (the real servers are tested in @lathe/lsp).
let ws: Awaited<ReturnType<typeof tempWorkspace>>;
let ctx: TestContext;
beforeEach(async () => {
  ws = await tempWorkspace();
  ctx = testContext(ws.dir);
});
afterEach(async () => ws.cleanup());

const error = (file: string, line: number, message: string): Diagnostic => ({ path: file, line, column: 1, endLine: line, endColumn: 2, severity: "error", message, code: "E1" });

function scripted(report: (files: string[]) => DiagnosticsReport | Promise<DiagnosticsReport>, format?: (content: string) => string): Diagnostics & { synced: string[][] } {
  const synced: string[][] = [];
  return {
    synced,
    sync: async (files) => {
      synced.push(files);
      return report(files);
    },
    current: async () => ({ files: {}, before: {}, notes: [] }),
    format: async (_file, content) => (format ? { content: format(content), formatter: "upper" } : undefined),
    prompt: () => "on",
    close: async () => {},
  };
}

describe("afterWrite", () => {
  it("leaves results alone without language servers", async () => {
    const result = await writeTool.execute({ path: "a.txt", content: "x\n" }, ctx);
    expect(result.output).toBe("Created a.txt (2 bytes, +1 -0 lines).");
    expect(result.metadata?.diagnostics).toBeUndefined();
  });

  it("appends errors of the written file only (warnings stay in the metadata) and the servers' notes", async () => {
    const file = path.join(ws.dir, "a.ts");
    const warning: Diagnostic = { ...error(file, 1, "unused"), severity: "warning" };
    ctx.diagnostics = scripted(() => ({ files: { [file]: [error(file, 2, "bad\n  thing"), warning] }, before: {}, notes: ["The x language server is still starting."] }));
    const result = await writeTool.execute({ path: "a.ts", content: "a\nb\n" }, ctx);
    expect(result.output).toBe(
      'Created a.ts (4 bytes, +2 -0 lines).\n\nLanguage server errors — fix them before moving on:\n<diagnostics file="a.ts">\na.ts:2:1 error E1: bad thing\n</diagnostics>\n\nNote: The x language server is still starting.',
    );
    expect(result.metadata?.diagnostics?.[file]).toHaveLength(2);
  });

  it("write reports only new errors of other files, capped; edit reports none of them", async () => {
    const file = path.join(ws.dir, "a.ts");
    const others = Array.from({ length: 7 }, (_, i) => path.join(ws.dir, `o${i}.ts`));
    const old = error(others[0]!, 1, "old problem");
    ctx.diagnostics = scripted(() => ({
      files: { [file]: [], ...Object.fromEntries(others.map((o) => [o, [error(o, 3, "new problem"), ...(o === others[0] ? [old] : [])]])) },
      before: { [others[0]!]: [old] },
      notes: [],
    }));
    const result = await writeTool.execute({ path: "a.ts", content: "a\n" }, ctx);
    expect(result.output).toContain("New errors in other files:");
    expect(result.output).not.toContain("old problem");
    expect(result.output.match(/new problem/g)).toHaveLength(5);
    expect(result.output).toContain("… and new errors in 2 more files");
    await recordCurrent(ctx, file, "a\n");
    const edited = await editTool.execute({ path: "a.ts", oldString: "a", newString: "b" }, ctx);
    expect(edited.output).not.toContain("other files");
  });

  it("a failing server becomes a note, never a failed tool", async () => {
    ctx.diagnostics = scripted(() => Promise.reject(new Error("socket closed")));
    const result = await writeTool.execute({ path: "a.ts", content: "a\n" }, ctx);
    expect(result.output).toContain("Note: Diagnostics are unavailable: socket closed");
    expect(await readFile(path.join(ws.dir, "a.ts"), "utf8")).toBe("a\n");
  });

  it("formats the written file, and the diff and read record follow", async () => {
    const diagnostics = scripted(() => ({ files: {}, before: {}, notes: [] }), (content) => content.toUpperCase());
    ctx.diagnostics = diagnostics;
    const result = await writeTool.execute({ path: "a.txt", content: "quiet\n" }, ctx);
    expect(await readFile(path.join(ws.dir, "a.txt"), "utf8")).toBe("QUIET\n");
    expect(result.metadata?.diff).toContain("+QUIET");
    const next = await editTool.execute({ path: "a.txt", oldString: "QUIET", newString: "loud" }, ctx);
    expect(next.metadata?.diff).toContain("+LOUD");
    expect(diagnostics.synced).toEqual([[path.join(ws.dir, "a.txt")], [path.join(ws.dir, "a.txt")]]);
  });

  it("an aborted call skips the wait", async () => {
    const diagnostics = scripted(() => ({ files: {}, before: {}, notes: [] }));
    ctx.diagnostics = diagnostics;
    ctx.controller.abort();
    await writeTool.execute({ path: "a.txt", content: "x\n" }, ctx);
    expect(diagnostics.synced).toEqual([]);
  });
});

describe("diagnostics tool", () => {
  it("without language servers, and before any file is open, says so", async () => {
    const { diagnosticsTool } = await import("./diagnostics/diagnostics.js");
    expect((await diagnosticsTool.execute({}, ctx)).output).toMatch(/^No language servers are running/);
    ctx.diagnostics = scripted(() => ({ files: {}, before: {}, notes: [] }));
    expect((await diagnosticsTool.execute({}, ctx)).output).toMatch(/^No file is open in a language server yet/);
  });
});
