import { spawn, execFileSync } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { afterAll, describe, expect, it } from "vitest";
import { waitGone } from "./test-processes.js";
import { workspace, type Workspace } from "./workspace.test-support.js";

// A host process that starts the TypeScript server and is then killed with SIGKILL (no exit hooks
// run): the server and its tsserver children must still go, watching the host's process id.
const here = path.dirname(fileURLToPath(import.meta.url));
const out = path.join(here, "../../../node_modules/.cache/lathe-lsp-test");

let ws: Workspace | undefined;
afterAll(async () => ws?.cleanup());

function groupMembers(pgid: number): number[] {
  try {
    return execFileSync("ps", ["-o", "pid=", "-g", String(pgid)], { encoding: "utf8" }).split("\n").map((s) => Number(s.trim())).filter((n) => n > 0);
  } catch {
    return [];
  }
}

describe("a killed host", () => {
  it("leaves no language server processes behind", async () => {
    ws = await workspace(undefined, { "tsconfig.json": "{}", "a.ts": "export const a: number = 1;\n" });
    await mkdir(out, { recursive: true });
    await build({ entryPoints: [path.join(here, "index.ts")], bundle: true, platform: "node", format: "esm", outfile: path.join(out, "lsp.mjs"), packages: "external", logLevel: "silent" });
    const script = path.join(out, "host.mjs");
    await writeFile(script, `import { createLsp } from "./lsp.mjs";
const lsp = createLsp({ timeoutMs: 30000 });
await lsp.sync([${JSON.stringify(path.join(ws.dir, "a.ts"))}], { cwd: ${JSON.stringify(ws.dir)} });
process.stdout.write(JSON.stringify(lsp.pids()) + "\\n");
setInterval(() => {}, 1000);
`);
    const host = spawn(process.execPath, [script], { stdio: ["ignore", "pipe", "inherit"] });
    const line = await new Promise<string>((resolve, reject) => {
      host.stdout.once("data", (chunk: Buffer) => resolve(chunk.toString()));
      host.once("exit", (code) => reject(new Error(`host exited early (${code})`)));
    });
    const leaders = JSON.parse(line) as number[];
    expect(leaders).toHaveLength(1);
    const members = groupMembers(leaders[0]!);
    expect(members.length).toBeGreaterThanOrEqual(2); // typescript-language-server and its tsserver
    host.kill("SIGKILL");
    expect(await waitGone(members, 15_000)).toEqual([]);
  }, 40_000);
});
