// Test helper (not exported): a temporary workspace whose files the session has "read", and a tool
// context over it wired to language servers.
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { recordCurrent, type Diagnostics, type ToolContext } from "@lathe/tools";
import { testContext, type TestContext } from "../../tools/src/test-context.js";

export interface Workspace {
  dir: string;
  ctx: TestContext;
  /** Writes files (relative paths) as the session had read them. */
  put(files: Record<string, string>): Promise<void>;
  read(file: string): Promise<string>;
  /** A fresh context (new call id), like the next tool call of the session. */
  next(): ToolContext;
  cleanup(): Promise<void>;
}

/** `trusted` (default true, as the tests of the repository's own tools need): whether the context trusts the workspace. */
export async function workspace(diagnostics: Diagnostics | undefined, files: Record<string, string>, trusted = true): Promise<Workspace> {
  const dir = await realpath(await mkdtemp(path.join(tmpdir(), "lathe-lsp-ws-")));
  const ctx = testContext(dir);
  ctx.trusted = trusted;
  if (diagnostics) ctx.diagnostics = diagnostics;
  const ws: Workspace = {
    dir,
    ctx,
    async put(more) {
      for (const [name, content] of Object.entries(more)) {
        const file = path.join(dir, name);
        await mkdir(path.dirname(file), { recursive: true });
        await writeFile(file, content);
        await recordCurrent(ctx, file, content);
      }
    },
    read: (file) => readFile(path.join(dir, file), "utf8"),
    next: () => ctx,
    async cleanup() {
      await rm(dir, { recursive: true, force: true });
      await rm(`${dir}-data`, { recursive: true, force: true });
    },
  };
  await ws.put(files);
  return ws;
}
