import path from "node:path";
import { createAgent } from "@lathe/core";
import { mockModel } from "@lathe/mock";
import { afterAll, describe, expect, it } from "vitest";
import { createLsp } from "./index.js";
import { waitGone } from "./test-processes.js";
import { workspace, type Workspace } from "./workspace.test-support.js";

let ws: Workspace | undefined;
afterAll(async () => ws?.cleanup());

/** The text of the last tool result in a model call's prompt. */
function lastToolOutput(call: { prompt: Array<{ role: string; content: unknown }> }): string {
  const tool = call.prompt.filter((m) => m.role === "tool").at(-1);
  return JSON.stringify(tool?.content ?? "");
}

describe("a scripted session with language servers", () => {
  it("the model is told of the type error its edit made, fixes it, and the servers stop with the agent", async () => {
    ws = await workspace(undefined, {
      "tsconfig.json": JSON.stringify({ compilerOptions: { strict: true, noEmit: true } }),
      "src/math.ts": "export function add(a: number, b: number): number {\n  return a + b;\n}\n",
      "src/main.ts": 'import { add } from "./math";\n\nexport const total: number = add(1, 2);\n',
    });
    const lsp = createLsp({ timeoutMs: 30_000 });
    const seen: string[] = [];
    const model = mockModel([
      { toolCalls: [{ name: "read", input: { path: "src/main.ts" } }] },
      { toolCalls: [{ name: "edit", input: { path: "src/main.ts", oldString: "add(1, 2)", newString: 'add(1, "2")' } }] },
      (call) => {
        const output = lastToolOutput(call);
        seen.push(output);
        // Act on what the tool result says, as a model would: fix the reported argument.
        const match = /src\/main\.ts:3:(\d+) error TS2345/.exec(output);
        if (!match) return { text: "No errors were reported." };
        return { toolCalls: [{ name: "edit", input: { path: "src/main.ts", oldString: 'add(1, "2")', newString: "add(1, 2)" } }] };
      },
      (call) => {
        seen.push(lastToolOutput(call));
        return { text: "Fixed the type error." };
      },
    ]);
    const agent = createAgent({ model, cwd: ws.dir, lsp, snapshots: false, dataDir: `${ws.dir}-data` });
    const session = await agent.sessions.create();
    const { info } = await agent.prompt(session.id, "Pass the string 2 to add, then check it compiles.");
    expect(info.finish).toBe("stop");

    // The environment (which says the language servers are on) rides on the prompt, not the system prompt.
    expect(JSON.stringify(model.calls[0]?.prompt)).toContain("Diagnostics: Language servers are on");
    expect(model.calls[0]?.tools?.map((t) => t.name)).toContain("diagnostics");
    expect(seen[0]).toContain("error TS2345: Argument of type 'string' is not assignable to parameter of type 'number'.");
    expect(seen[1]).toContain("Edited src/main.ts");
    expect(seen[1]).not.toContain("TS2345");
    expect(await ws.read("src/main.ts")).toContain("add(1, 2)");

    const pids = lsp.pids();
    expect(pids).toHaveLength(1);
    await agent.close();
    expect(await waitGone(pids, 5000)).toEqual([]);
  }, 60_000);

  it("explore agents are offered sourcegraph and diagnostics, and no file-changing tool", async () => {
    const model = mockModel([{ text: "looked" }]);
    const lsp = createLsp();
    const agent = createAgent({ model, cwd: path.resolve("."), snapshots: false, lsp });
    const session = await agent.sessions.create();
    await agent.prompt(session.id, "look around", { agent: "explore" });
    const offered = model.calls[0]?.tools?.map((t) => t.name) ?? [];
    expect(offered).toEqual(expect.arrayContaining(["sourcegraph", "diagnostics", "read", "grep"]));
    expect(offered).not.toContain("edit");
    expect(lsp.pids()).toEqual([]); // nothing started: no file was touched
    await agent.close();
  });

  it("an agent without language servers offers no diagnostics tool and says nothing of them", async () => {
    const model = mockModel([{ text: "hi" }]);
    const agent = createAgent({ model, cwd: path.resolve("."), snapshots: false });
    const session = await agent.sessions.create();
    await agent.prompt(session.id, "hello");
    expect(model.calls[0]?.tools?.map((t) => t.name) ?? []).not.toContain("diagnostics");
    expect(JSON.stringify(model.calls[0]?.prompt)).not.toContain("Language servers are on");
    await agent.close();
  });
});
