import path from "node:path";
import { editTool, writeTool } from "@lathe/tools";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLsp, type Lsp } from "./index.js";
import { waitGone } from "./test-processes.js";
import { workspace, type Workspace } from "./workspace.test-support.js";

// One warm pyright (from npm) for the file.
let lsp: Lsp;
let ws: Workspace;
beforeAll(async () => {
  lsp = createLsp({ timeoutMs: 30_000, servers: { typescript: false } });
  ws = await workspace(lsp, {
    "pyproject.toml": '[project]\nname = "fixture"\nversion = "0.1.0"\n',
    "app/util.py": "def double(x: int) -> int:\n    return x * 2\n",
    "app/main.py": "from util import double\n\nresult: int = double(2)\n",
  });
  await lsp.sync([path.join(ws.dir, "app/main.py")], { cwd: ws.dir });
});
afterAll(async () => {
  const pids = lsp.pids();
  await lsp.close();
  expect(await waitGone(pids, 5000)).toEqual([]);
  await ws.cleanup();
});

describe("diagnostics from pyright after file changes", () => {
  it("an edit that introduces a type error gets pyright's message; the fix clears it", async () => {
    const broken = await editTool.execute({ path: "app/main.py", oldString: "double(2)", newString: 'double("2")' }, ws.ctx);
    expect(broken.output).toMatch(/app\/main\.py:3:22 error reportArgumentType: Argument of type "Literal\['2'\]" cannot be assigned to parameter "x" of type "int"/);
    const fixed = await editTool.execute({ path: "app/main.py", oldString: 'double("2")', newString: "double(2)" }, ws.ctx);
    expect(fixed.output).not.toContain("Language server errors");
  });

  it("write of a rename reports the importer that broke", async () => {
    const result = await writeTool.execute({ path: "app/util.py", content: "def twice(x: int) -> int:\n    return x * 2\n" }, ws.ctx);
    expect(result.output).toContain("New errors in other files:");
    expect(result.output).toMatch(/app\/main\.py:1:18 error .*"double" is unknown import symbol/);
  });
});
