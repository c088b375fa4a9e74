// The tool-level sequence of an agent turn (the loop of @lathe/core drives the same calls): read a
// file, edit it with slightly wrong indentation, apply a patch, run the tests with bash.
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { builtinTools } from "./builtin-tools.js";
import { tempWorkspace, testContext } from "./test-context.js";
import type { Tool } from "./tool.js";

let ws: Awaited<ReturnType<typeof tempWorkspace>>;
beforeEach(async () => {
  ws = await tempWorkspace();
});
afterEach(async () => ws.cleanup());

const MATH = `export function add(a, b) {
    return a - b;
}

export function double(x) {
    return x * 3;
}
`;

const TEST = `import { add, double, square } from "./math.mjs";
const checks = [add(2, 3) === 5, double(4) === 8, square(3) === 9];
if (checks.every(Boolean)) console.log("all passed");
else { console.log("failed", checks); process.exit(1); }
`;

describe("a coding turn through the tools", () => {
  it("reads, edits with wrong indentation, patches, runs the tests, and leaves the workspace as expected", async () => {
    await mkdir(path.join(ws.dir, "src"));
    await writeFile(path.join(ws.dir, "src/math.mjs"), MATH);
    await writeFile(path.join(ws.dir, "src/math.test.mjs"), TEST);
    const tools = new Map(builtinTools().map((tool): [string, Tool] => [tool.name, tool]));
    const ctx = testContext(ws.dir);
    const call = (name: string, input: unknown) => {
      const tool = tools.get(name)!;
      return tool.execute(tool.parameters.parse(input), ctx);
    };

    const before = await call("bash", { command: "node src/math.test.mjs", description: "Run the tests" });
    expect(before.metadata?.exit).toBe(1);

    const read = await call("read", { path: "src/math.mjs" });
    expect(read.output).toContain("     2\t    return a - b;");

    // The model indents with two spaces where the file has four.
    const edit = await call("edit", { path: "src/math.mjs", oldString: "export function add(a, b) {\n  return a - b;\n}", newString: "export function add(a, b) {\n  return a + b;\n}" });
    expect(edit.metadata?.matcher).not.toBe("exact");

    const patch = await call("apply_patch", {
      patchText: [
        "*** Begin Patch",
        "*** Update File: src/math.mjs",
        "@@ export function double(x) {",
        "-    return x * 3;",
        "+    return x * 2;",
        " }",
        "+",
        "+export function square(x) {",
        "+    return x * x;",
        "+}",
        "*** End Patch",
      ].join("\n"),
    });
    expect(patch.output).toContain("M src/math.mjs");

    const after = await call("bash", { command: "node src/math.test.mjs", description: "Run the tests" });
    expect(after.output).toBe("all passed\n");
    expect(after.metadata?.exit).toBe(0);

    const final = await readFile(path.join(ws.dir, "src/math.mjs"), "utf8");
    expect(final).toMatch(/export function add\(a, b\) \{\n +return a \+ b;\n\}/);
    expect(final).toContain("export function double(x) {\n    return x * 2;\n}\n\nexport function square(x) {\n    return x * x;\n}\n");
    expect(ctx.events.filter((e) => e.type === "file.edited")).toHaveLength(2);
    expect(ctx.asks.map((a) => a.permission)).toEqual(["bash", "read", "edit", "edit", "bash"]);
  });
});
