import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createAgent, type AgentEvent } from "@lathe/core";
import { mockModel } from "@lathe/mock";

let workspace: string;
let dataDir: string;
afterEach(() => {
  rmSync(workspace, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
});

describe("a coding session with the built-in tools", () => {
  it("reads, edits with slightly wrong indentation, patches, runs the tests and finishes", async () => {
    workspace = mkdtempSync(join(tmpdir(), "lathe-e2e-"));
    dataDir = mkdtempSync(join(tmpdir(), "lathe-data-"));
    writeFileSync(
      join(workspace, "math.mjs"),
      ["export function add(a, b) {", "    return a - b;", "}", "", "export function double(x) {", "    return x * 3;", "}", ""].join("\n"),
    );
    writeFileSync(
      join(workspace, "test.mjs"),
      ['import { add, double } from "./math.mjs";', "if (add(2, 3) !== 5) throw new Error('add');", "if (double(4) !== 8) throw new Error('double');", 'console.log("all tests pass");', ""].join("\n"),
    );
    const patch = ["*** Begin Patch", "*** Update File: math.mjs", "@@ export function double(x) {", "-    return x * 3;", "+    return x * 2;", "*** End Patch"].join("\n");
    const model = mockModel([
      { text: "Let me read the code.", toolCalls: [{ name: "read", input: { path: "math.mjs" } }] },
      // Two spaces where the file has four: the edit matcher must still find the right line.
      { toolCalls: [{ name: "edit", input: { path: "math.mjs", oldString: "  return a - b;", newString: "  return a + b;" } }] },
      { toolCalls: [{ name: "apply_patch", input: { patchText: patch } }] },
      { toolCalls: [{ name: "bash", input: { command: "node test.mjs", description: "run the tests" } }] },
      { text: "Fixed add and double; the tests pass." },
    ]);
    const approvals: string[] = [];
    const agent = createAgent({
      model,
      cwd: workspace,
      dataDir,
      permission: { edit: "ask", bash: { "*": "ask" } },
      approve: async (request) => {
        approvals.push(`${request.permission}:${request.patterns.join(",")}`);
        return "once";
      },
    });
    const edited: AgentEvent[] = [];
    agent.on("file.edited", (e) => edited.push(e));
    const session = await agent.sessions.create();
    const { info, parts } = await agent.prompt(session.id, "Fix the failing tests in math.mjs");

    expect(info.error).toBeUndefined();
    expect(info.finish).toBe("stop");
    const tools = parts.flatMap((p) => (p.type === "tool" ? [p] : []));
    expect(tools.map((t) => [t.tool, t.state.status])).toEqual([
      ["read", "completed"],
      ["edit", "completed"],
      ["apply_patch", "completed"],
      ["bash", "completed"],
    ]);
    const bash = tools[3]!;
    expect(bash.state.status === "completed" && bash.state.output).toContain("all tests pass");
    expect(bash.state.status === "completed" && bash.state.metadata).toMatchObject({ exitCode: 0 });
    expect(readFileSync(join(workspace, "math.mjs"), "utf8")).toBe(
      ["export function add(a, b) {", "    return a + b;", "}", "", "export function double(x) {", "    return x * 2;", "}", ""].join("\n"),
    );
    expect(approvals).toEqual(["edit:math.mjs", "edit:math.mjs", "bash:node test.mjs"]);
    expect(edited.length).toBeGreaterThanOrEqual(2);
  });
});
