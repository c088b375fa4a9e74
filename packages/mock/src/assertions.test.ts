import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createAgent } from "@lathe/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { collectRun, filesChanged, finalText, toolCalls } from "./assertions.js";
import { memoryCassette } from "./cassette.js";
import { mockModel } from "./mock-model.js";
import { recordModel } from "./record-model.js";
import { replayModel } from "./replay-model.js";

let workspace: string;
let dataDir: string;
beforeEach(() => {
  workspace = mkdtempSync(join(tmpdir(), "lathe-assert-"));
  dataDir = mkdtempSync(join(tmpdir(), "lathe-assert-data-"));
  writeFileSync(join(workspace, "math.js"), "export const add = (a, b) => a - b;\n");
});
afterEach(() => {
  rmSync(workspace, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
});

const fixScript = () => [
  { text: "Reading the code.", toolCalls: [{ name: "read", input: { path: "math.js" } }] },
  { toolCalls: [{ name: "edit", input: { path: "math.js", oldString: "a - b", newString: "a + b" } }] },
  { toolCalls: [{ name: "write", input: { path: "notes/CHANGES.md", content: "- add adds\n" } }] },
  { text: "Fixed `add`: it now adds." },
];

describe("assertion helpers over a real agent run", () => {
  it("list the tool calls, the final text and the files changed", async () => {
    const agent = createAgent({ model: mockModel(fixScript()), cwd: workspace, dataDir });
    const session = await agent.sessions.create();
    const run = await collectRun(agent.prompt(session.id, "Fix add"));

    expect(toolCalls(run).map((c) => [c.tool, c.status])).toEqual([
      ["read", "completed"],
      ["edit", "completed"],
      ["write", "completed"],
    ]);
    expect(toolCalls(run)[1]!.input).toEqual({ path: "math.js", oldString: "a - b", newString: "a + b" });
    expect(toolCalls(run)[1]!.metadata?.diff).toContain("+export const add = (a, b) => a + b;");
    expect(finalText(run)).toBe("Fixed `add`: it now adds.");
    expect(filesChanged(run, { cwd: workspace })).toEqual(["math.js", "notes/CHANGES.md"]);
    expect(readFileSync(join(workspace, "math.js"), "utf8")).toContain("a + b");

    // The same answers from the other things a host has at hand.
    expect(finalText(run.result)).toBe("Fixed `add`: it now adds.");
    expect(toolCalls(run.events)).toEqual(toolCalls(run));
    expect(filesChanged(run.events, { cwd: workspace })).toEqual(["math.js", "notes/CHANGES.md"]);
    const messages = await agent.sessions.messages(session.id);
    expect(toolCalls(messages).map((c) => c.tool)).toEqual(["read", "edit", "write"]);
    expect(finalText(messages)).toBe("Fixed `add`: it now adds.");
    expect(filesChanged(messages, { cwd: workspace })).toEqual(["math.js", "notes/CHANGES.md"]);
    expect(filesChanged(run).every((file) => file.startsWith(workspace) || !file.startsWith("/"))).toBe(true);
    await agent.close();
  });

  it("report failed calls with their error and an empty final text when the run ends on a tool error", async () => {
    const agent = createAgent({
      model: mockModel([{ toolCalls: [{ name: "read", input: { path: "missing.txt" } }] }, { text: "" }]),
      cwd: workspace,
      dataDir,
    });
    const session = await agent.sessions.create();
    const run = await collectRun(agent.prompt(session.id, "read it"));
    const [call] = toolCalls(run);
    expect(call).toMatchObject({ tool: "read", status: "error" });
    expect(call!.error).toMatch(/missing\.txt/);
    expect(finalText(run)).toBe("");
    expect(filesChanged(run)).toEqual([]);
    expect(toolCalls([])).toEqual([]);
    await agent.close();
  });

  it("leave out the user's prompt when reading events", async () => {
    const agent = createAgent({ model: mockModel([{ text: "Hi." }]), cwd: workspace, dataDir });
    const session = await agent.sessions.create();
    const run = await collectRun(agent.prompt(session.id, "hello there"));
    expect(finalText(run.events)).toBe("Hi.");
    await agent.close();
  });
});

describe("record and replay a Lathe session", () => {
  it("replays a recorded agent run in another temporary workspace on another day, and fails readably when the prompt changes", async () => {
    const cassette = memoryCassette();
    const recording = createAgent({ model: recordModel(mockModel(fixScript()), cassette), cwd: workspace, dataDir });
    const first = await collectRun(recording.prompt((await recording.sessions.create()).id, "Fix add"));
    await recording.close();
    expect(cassette.data!.interactions).toHaveLength(4);
    expect(JSON.stringify(cassette.data)).not.toContain(workspace); // the temporary path is normalised

    const other = mkdtempSync(join(tmpdir(), "lathe-assert-other-"));
    try {
      writeFileSync(join(other, "math.js"), "export const add = (a, b) => a - b;\n");
      const replaying = createAgent({ model: replayModel(cassette), cwd: other, dataDir });
      const second = await collectRun(replaying.prompt((await replaying.sessions.create()).id, "Fix add"));
      expect(second.result.info.error).toBeUndefined();
      expect(toolCalls(second).map((c) => c.tool)).toEqual(toolCalls(first).map((c) => c.tool));
      expect(finalText(second)).toBe(finalText(first));
      expect(filesChanged(second, { cwd: other })).toEqual(["math.js", "notes/CHANGES.md"]);
      expect(readFileSync(join(other, "math.js"), "utf8")).toContain("a + b");

      const changed = await collectRun(replaying.prompt((await replaying.sessions.create()).id, "Fix subtract"));
      expect(changed.result.info.error?.message).toMatch(/No recorded response[\s\S]*^-\s+"text": "Fix add"[\s\S]*^\+\s+"text": "Fix subtract"/m);
      await replaying.close();
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });
});
