// Models trained on other agents call the file tools with those agents' argument names. Through the
// whole loop (the AI SDK validates tool input against the tool's schema), such calls run.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createAgent } from "@lathe/core";
import { mockModel } from "@lathe/mock";

let workspace: string;
let dataDir: string;
afterEach(() => {
  rmSync(workspace, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
});

describe("tool arguments under other agents' names", () => {
  it("reads, edits, multi-edits and writes with file_path, old_string, new_string and replace_all, in one step each", async () => {
    workspace = mkdtempSync(join(tmpdir(), "lathe-aliases-"));
    dataDir = mkdtempSync(join(tmpdir(), "lathe-data-"));
    writeFileSync(join(workspace, "a.txt"), "one two two\n");
    const model = mockModel([
      { toolCalls: [{ name: "read", input: { file_path: "a.txt" } }] },
      { toolCalls: [{ name: "edit", input: { file_path: "a.txt", old_string: "two", new_string: "2", replace_all: true } }] },
      { toolCalls: [{ name: "multiedit", input: { filePath: "a.txt", edits: [{ old_string: "one", new_string: "1" }] } }] },
      { toolCalls: [{ name: "write", input: { file_path: "b.txt", content: "new\n" } }] },
      { text: "done" },
    ]);
    const agent = createAgent({ model, cwd: workspace, dataDir, snapshots: false });
    const session = await agent.sessions.create();
    const { info, parts } = await agent.prompt(session.id, "edit");
    expect(info.error).toBeUndefined();
    const tools = parts.flatMap((p) => (p.type === "tool" ? [p] : []));
    expect(tools.map((t) => [t.tool, t.state.status])).toEqual([
      ["read", "completed"],
      ["edit", "completed"],
      ["multiedit", "completed"],
      ["write", "completed"],
    ]);
    expect(readFileSync(join(workspace, "a.txt"), "utf8")).toBe("1 2 2\n");
    expect(readFileSync(join(workspace, "b.txt"), "utf8")).toBe("new\n");
    // The schema the model was shown names only the canonical arguments.
    const edit = model.calls[0]!.tools?.find((t) => t.name === "edit");
    expect(JSON.stringify(edit)).toContain("oldString");
    expect(JSON.stringify(edit)).not.toContain("old_string");
  });
});
