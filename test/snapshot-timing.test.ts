// When the step snapshot is taken: beside the model request, never before it. A tool that may change
// files waits for it (attribution stays exact); a read-only step never does; a failing snapshot
// never costs the model's answer.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { createAgent, Snapshots } from "@lathe/core";
import { mockModel } from "@lathe/mock";
import { defineTool } from "@lathe/tools";

const dirs: string[] = [];
afterEach(() => {
  vi.restoreAllMocks();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function tempDir(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `lathe-${name}-`));
  dirs.push(dir);
  return dir;
}

/** Holds every `track()` until `release()`; counts the calls. */
function gateSnapshots() {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const original = Snapshots.prototype.track;
  const spy = vi.spyOn(Snapshots.prototype, "track").mockImplementation(async function (this: Snapshots) {
    await gate;
    return original.call(this);
  });
  return { release, spy };
}

const until = async (check: () => boolean, what: string) => {
  for (let i = 0; i < 500 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  if (!check()) throw new Error(`timed out waiting for ${what}`);
};

describe("step snapshots off the critical path", () => {
  it("a read-only step never waits: its request and its tool run while the snapshot is held", async () => {
    const cwd = tempDir("ws");
    writeFileSync(join(cwd, "a.txt"), "a\n");
    const ran: string[] = [];
    const look = defineTool({
      name: "look",
      description: "reads nothing, records that it ran",
      parameters: z.object({ what: z.string() }),
      readOnly: true,
      async execute({ what }) {
        ran.push(what);
        return { title: "look", output: "seen" };
      },
    });
    const model = mockModel([{ toolCalls: [{ name: "look", input: { what: "first" } }] }, { toolCalls: [{ name: "look", input: { what: "second" } }] }, { text: "all read" }]);
    const agent = createAgent({ model, tools: [look], cwd, dataDir: tempDir("data") });
    const session = await agent.sessions.create();
    const { release, spy } = gateSnapshots();
    const result = agent.prompt(session.id, "read");
    // Every request went out and both tools ran while no snapshot could finish.
    await until(() => model.calls.length === 3, "three requests");
    expect(ran).toEqual(["first", "second"]);
    // A still-running snapshot is reused by the next read-only step: the held ones do not pile up.
    expect(spy.mock.calls.length).toBe(1);
    release();
    const { info, parts } = await result;
    expect(info.error).toBeUndefined();
    // Once it landed, the tree is on every step's parts.
    const trees = parts.flatMap((p) => (p.type === "step-start" || p.type === "step-finish" ? [p.snapshot] : []));
    expect(trees).toHaveLength(6);
    expect(new Set(trees).size).toBe(1);
    expect(trees[0]).toMatch(/^[0-9a-f]{40}$/);
    const stored = await agent.sessions.messages(session.id);
    expect(stored.at(-1)!.parts.find((p) => p.type === "step-start")).toMatchObject({ snapshot: trees[0] });
    await agent.close();
  });

  it("a tool that changes files waits for its snapshot: an edit in the first step is that step's, and revert restores it", async () => {
    const cwd = tempDir("ws");
    writeFileSync(join(cwd, "a.txt"), "one\ntwo\n");
    // The first step reads the file (edits need that) and edits it.
    const model = mockModel([
      { toolCalls: [{ name: "read", input: { path: "a.txt" } }, { name: "edit", input: { path: "a.txt", oldString: "two", newString: "TWO" } }] },
      { text: "edited" },
    ]);
    const agent = createAgent({ model, cwd, dataDir: tempDir("data") });
    const session = await agent.sessions.create();
    const { release } = gateSnapshots();
    const result = agent.prompt(session.id, "edit");
    await until(() => model.calls.length === 1, "the first request");
    // The request went out, but the edit waits for the snapshot of the tree it starts from.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("one\ntwo\n");
    release();
    const { info, parts } = await result;
    expect(info.error).toBeUndefined();
    expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("one\nTWO\n");
    const firstStepEnd = parts.findIndex((p) => p.type === "step-finish");
    const patch = parts.findIndex((p) => p.type === "patch");
    expect(patch).toBeGreaterThan(firstStepEnd);
    expect(parts.findIndex((p, i) => i > firstStepEnd && p.type === "step-start")).toBeGreaterThan(patch);
    expect(parts[patch]).toMatchObject({ type: "patch", files: ["a.txt"], hash: (parts[0] as { snapshot?: string }).snapshot });
    const user = (await agent.sessions.messages(session.id)).find((m) => m.info.role === "user")!;
    await agent.sessions.revert(session.id, { messageID: user.info.id });
    expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("one\ntwo\n");
    await agent.close();
  });

  it("a failing snapshot does not lose the model's answer nor stop a tool that changes files", async () => {
    const cwd = tempDir("ws");
    vi.spyOn(Snapshots.prototype, "track").mockRejectedValue(new Error("disk on fire"));
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.message);
    process.on("warning", onWarning);
    try {
      const model = mockModel([{ toolCalls: [{ name: "write", input: { path: "new.txt", content: "hi\n" } }] }, { text: "the answer" }]);
      const agent = createAgent({ model, cwd, dataDir: tempDir("data") });
      const session = await agent.sessions.create();
      const { info, parts } = await agent.prompt(session.id, "write");
      expect(info.error).toBeUndefined();
      expect(info.finish).toBe("stop");
      expect(parts.filter((p) => p.type === "text").map((p) => (p as { text: string }).text)).toEqual(["the answer"]);
      expect(existsSync(join(cwd, "new.txt"))).toBe(true);
      expect(parts.some((p) => p.type === "patch")).toBe(false);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.some((w) => w.includes("disk on fire"))).toBe(true);
      await agent.close();
    } finally {
      process.off("warning", onWarning);
    }
  });
});
