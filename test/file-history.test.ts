import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createAgent, SessionBusyError } from "@lathe/core";
import { mockModel, type MockTurn } from "@lathe/mock";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function tempDir(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `lathe-${name}-`));
  dirs.push(dir);
  return dir;
}

/** Every file of the workspace (but .git) with a hash of its bytes. */
function tree(root: string, dir = root, out: Record<string, string> = {}): Record<string, string> {
  for (const entry of readdirSync(dir)) {
    if (entry === ".git") continue;
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) tree(root, path, out);
    else out[relative(root, path)] = createHash("sha1").update(readFileSync(path)).digest("hex");
  }
  return out;
}

const turns = (): MockTurn[] => [
  // Turn 1: the write tool creates a.txt; a shell command writes a binary file.
  { toolCalls: [{ name: "write", input: { path: "a.txt", content: "one\ntwo\n" } }] },
  { toolCalls: [{ name: "bash", input: { command: "printf '\\x00\\x01\\x02binary' > b.bin" } }] },
  { text: "turn 1 done" },
  // Turn 2: edit a.txt; the shell deletes c.txt and renames d.txt.
  { toolCalls: [{ name: "edit", input: { path: "a.txt", oldString: "two", newString: "TWO" } }] },
  { toolCalls: [{ name: "bash", input: { command: "rm c.txt && mv d.txt e.txt" } }] },
  { text: "turn 2 done" },
  // Turn 3: a patch adds f.txt and deletes a.txt.
  { toolCalls: [{ name: "apply_patch", input: { patchText: "*** Begin Patch\n*** Add File: f.txt\n+fresh\n*** Delete File: a.txt\n*** End Patch" } }] },
  { text: "turn 3 done" },
];

for (const gitWorkspace of [false, true]) {
  describe(`file history in a ${gitWorkspace ? "git" : "non-git"} workspace`, () => {
    it("records patches per step and reverts to each message exactly; unrevert restores the latest", async () => {
      const cwd = tempDir("ws");
      writeFileSync(join(cwd, "c.txt"), "see\n");
      writeFileSync(join(cwd, "d.txt"), "dee\n");
      if (gitWorkspace) {
        execFileSync("git", ["init", "-q"], { cwd });
        execFileSync("git", ["-c", "user.email=t@t", "-c", "user.name=t", "commit", "-q", "--allow-empty", "-m", "init"], { cwd });
      }
      const gitHead = gitWorkspace ? execFileSync("git", ["rev-parse", "HEAD"], { cwd }).toString() : "";
      const agent = createAgent({ model: mockModel(turns()), cwd, dataDir: tempDir("data") });
      const session = await agent.sessions.create();
      const states = [tree(cwd)];
      for (const prompt of ["one", "two", "three"]) {
        const { info } = await agent.prompt(session.id, prompt);
        expect(info.error).toBeUndefined();
        states.push(tree(cwd));
      }
      expect(states[3]).toEqual({ "b.bin": expect.any(String), "e.txt": expect.any(String), "f.txt": expect.any(String) });

      const history = await agent.sessions.messages(session.id);
      const users = history.filter((m) => m.info.role === "user").map((m) => m.info.id);
      const patches = history.flatMap((m) => m.parts.flatMap((p) => (p.type === "patch" ? [p.files.sort()] : [])));
      expect(patches).toEqual([["a.txt"], ["b.bin"], ["a.txt"], ["c.txt", "d.txt", "e.txt"], ["a.txt", "f.txt"]]);

      for (let i = users.length - 1; i >= 0; i--) {
        const reverted = await agent.sessions.revert(session.id, { messageID: users[i]! });
        expect(reverted.revert?.messageID).toBe(users[i]);
        expect(tree(cwd)).toEqual(states[i]);
      }
      await agent.sessions.unrevert(session.id);
      expect(tree(cwd)).toEqual(states[3]);
      if (gitWorkspace) {
        expect(execFileSync("git", ["rev-parse", "HEAD"], { cwd }).toString()).toBe(gitHead);
        expect(execFileSync("git", ["status", "--porcelain"], { cwd }).toString()).toContain("?? f.txt");
      }

      // Diff of the whole session, for UIs.
      const diff = await agent.sessions.diff(session.id);
      expect(diff.map((d) => [d.path, d.status])).toEqual([
        ["b.bin", "added"],
        ["c.txt", "deleted"],
        ["d.txt", "deleted"],
        ["e.txt", "added"],
        ["f.txt", "added"],
      ]);
      const fromTurn3 = await agent.sessions.diff(session.id, { messageID: users[2]! });
      expect(fromTurn3.map((d) => [d.path, d.status, d.additions, d.removals])).toEqual([
        ["a.txt", "deleted", 0, 2],
        ["f.txt", "added", 1, 0],
      ]);

    });
  });
}

describe("revert rules", () => {
  it("the next prompt after a revert drops the reverted messages; a busy session cannot be reverted", async () => {
    const cwd = tempDir("ws");
    const model = mockModel([
      { toolCalls: [{ name: "write", input: { path: "x.txt", content: "x\n" } }] },
      { text: "wrote x" },
      { toolCalls: [{ name: "write", input: { path: "y.txt", content: "y\n" } }] },
      { text: "wrote y" },
      { text: "y".repeat(300) },
      { text: "after revert" },
    ], { delayMs: 1 });
    const agent = createAgent({ model, cwd, dataDir: tempDir("data") });
    const s = await agent.sessions.create();
    await agent.prompt(s.id, "write x");
    await agent.prompt(s.id, "write y");
    const users = (await agent.sessions.messages(s.id)).filter((m) => m.info.role === "user").map((m) => m.info.id);
    const busy = agent.prompt(s.id, "talk");
    await expect(agent.sessions.revert(s.id, { messageID: users[1]! })).rejects.toBeInstanceOf(SessionBusyError);
    await busy;
    await agent.sessions.revert(s.id, { messageID: users[1]! });
    expect(tree(cwd)).toEqual({ "x.txt": expect.any(String) });
    expect(await agent.sessions.messages(s.id)).toHaveLength(6);
    const { info } = await agent.prompt(s.id, "continue");
    expect(info.finish).toBe("stop");
    const history = await agent.sessions.messages(s.id);
    expect(history.map((m) => m.info.role)).toEqual(["user", "assistant", "user", "assistant"]);
    expect((await agent.sessions.get(s.id))?.revert).toBeUndefined();
    // The model did not see the dropped turns.
    expect(JSON.stringify(model.calls.at(-1)!.prompt)).not.toContain("write y");
  });

  it("two agents on one workspace: concurrent steps do not corrupt the snapshots; sequential turns revert apart", async () => {
    const cwd = tempDir("ws");
    const dataDir = tempDir("data");
    const writes = (file: string, n: number): MockTurn[] =>
      Array.from({ length: n }, (_, i) => [
        { toolCalls: [{ name: "write", input: { path: `${file}${i}.txt`, content: `${file}${i}\n` } }] },
        { text: "ok" },
      ]).flat();
    const a = createAgent({ model: mockModel(writes("a", 4)), cwd, dataDir });
    const b = createAgent({ model: mockModel(writes("b", 4)), cwd, dataDir });
    const sa = await a.sessions.create();
    const sb = await b.sessions.create();
    // Concurrent: every step of both agents records a snapshot without corrupting the shared shadow repository.
    await Promise.all([
      (async () => {
        for (let i = 0; i < 3; i++) await a.prompt(sa.id, `write a${i}`);
      })(),
      (async () => {
        for (let i = 0; i < 3; i++) await b.prompt(sb.id, `write b${i}`);
      })(),
    ]);
    expect(Object.keys(tree(cwd)).sort()).toEqual(["a0.txt", "a1.txt", "a2.txt", "b0.txt", "b1.txt", "b2.txt"]);
    for (const [agent, s] of [[a, sa], [b, sb]] as const) {
      const patches = (await agent.sessions.messages(s.id)).flatMap((m) => m.parts.filter((p) => p.type === "patch"));
      expect(patches.length).toBeGreaterThanOrEqual(3);
    }
    // Sequential: A's revert undoes only what A's turn changed.
    await a.prompt(sa.id, "write a3");
    await b.prompt(sb.id, "write b3");
    const lastA = (await a.sessions.messages(sa.id)).filter((m) => m.info.role === "user").at(-1)!.info.id;
    await a.sessions.revert(sa.id, { messageID: lastA });
    const files = Object.keys(tree(cwd)).sort();
    expect(files).toContain("b3.txt");
    expect(files).not.toContain("a3.txt");
  });
});

describe("revert to a part", () => {
  it("undoes only the steps from that part on", async () => {
    const cwd = tempDir("ws");
    const model = mockModel([
      { toolCalls: [{ name: "write", input: { path: "first.txt", content: "1\n" } }] },
      { toolCalls: [{ name: "bash", input: { command: "echo 2 > second.txt" } }] },
      { text: "done" },
    ]);
    const agent = createAgent({ model, cwd, dataDir: tempDir("data") });
    const s = await agent.sessions.create();
    const { info, parts } = await agent.prompt(s.id, "two steps");
    const secondStep = parts.filter((p) => p.type === "step-start")[1]!;
    await agent.sessions.revert(s.id, { messageID: info.id, partID: secondStep.id });
    expect(Object.keys(tree(cwd))).toEqual(["first.txt"]);
    await agent.sessions.unrevert(s.id);
    expect(Object.keys(tree(cwd)).sort()).toEqual(["first.txt", "second.txt"]);
  });
});
