import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  DirectoryFileSystem,
  PatchApplyError,
  PatchPathError,
  applyPatch,
  commitPlan,
  planPatch,
  type PatchFileSystem,
} from "../index.js";

const temps: string[] = [];
afterAll(() => temps.forEach((t) => rmSync(t, { recursive: true, force: true })));

function tempDir(files: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), "lathe-apply-"));
  temps.push(dir);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  return dir;
}

function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const abs = join(d, name);
      if (statSync(abs).isDirectory()) {
        out[`${relative(dir, abs)}/`] = "";
        walk(abs);
      } else out[relative(dir, abs)] = readFileSync(abs, "utf8");
    }
  };
  walk(dir);
  return out;
}

const patch = (...lines: string[]): string => ["*** Begin Patch", ...lines, "*** End Patch"].join("\n");

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected a rejection");
}

describe("applyPatch", () => {
  it("applies to an in-memory map and lists every change with its diff", async () => {
    const files = new Map([
      ["src/a.ts", "export const a = 1;\n"],
      ["old.txt", "bye\n"],
      ["mv/from.txt", "x\ny\n"],
    ]);
    const changes = await applyPatch(
      patch(
        "*** Add File: src/b.ts",
        "+export const b = 2;",
        "*** Update File: src/a.ts",
        "@@",
        "-export const a = 1;",
        "+export const a = 10;",
        "*** Delete File: old.txt",
        "*** Update File: mv/from.txt",
        "*** Move to: mv/to.txt",
        "@@",
        " x",
        "-y",
        "+z",
      ),
      files,
    );
    expect(Object.fromEntries(files)).toEqual({ "src/a.ts": "export const a = 10;\n", "src/b.ts": "export const b = 2;\n", "mv/to.txt": "x\nz\n" });
    expect(changes.map((c) => [c.type, c.path, c.movePath, c.additions, c.removals])).toEqual([
      ["added", "src/b.ts", undefined, 1, 0],
      ["modified", "src/a.ts", undefined, 1, 1],
      ["deleted", "old.txt", undefined, 0, 1],
      ["moved", "mv/from.txt", "mv/to.txt", 1, 1],
    ]);
    expect(changes[0]!.diff).toBe("--- /dev/null\n+++ b/src/b.ts\n@@ -0,0 +1 @@\n+export const b = 2;\n");
    expect(changes[3]!.diff.startsWith("--- a/mv/from.txt\n+++ b/mv/to.txt\n")).toBe(true);
    expect(changes[1]).toMatchObject({ oldContent: "export const a = 1;\n", newContent: "export const a = 10;\n" });
  });

  it("reports a chunk that does not fit with its index, lines and the closest region", async () => {
    const files = new Map([["f.py", "def f():\n    return compute(1, 2)\n"]]);
    const error = await rejection(applyPatch(patch("*** Update File: f.py", "@@", " def f():", "-    return compute(1, 3)", "+    return 0"), files));
    expect(error).toBeInstanceOf(PatchApplyError);
    const e = error as PatchApplyError;
    expect(e.code).toBe("context_not_found");
    expect(e.chunk).toBe(1);
    expect(e.context).toEqual(["def f():", "    return compute(1, 3)"]);
    expect(e.nearMiss).toMatchObject({ startLine: 1, endLine: 2 });
    expect(e.message).toMatch(/closest region is lines 1-2/);
    expect(files.get("f.py")).toBe("def f():\n    return compute(1, 2)\n");
  });

  it("refuses paths that leave the root, before touching anything", async () => {
    for (const bad of ["../x.txt", "/etc/passwd", "a/../../x", "C:\\x.txt", "..\\x.txt", "."]) {
      const files = new Map([["keep.txt", "k\n"]]);
      const error = await rejection(applyPatch(patch("*** Add File: ok.txt", "+ok", `*** Add File: ${bad}`, "+x"), files));
      expect(error, bad).toBeInstanceOf(PatchPathError);
      expect([...files.keys()]).toEqual(["keep.txt"]);
    }
    const moved = await rejection(applyPatch(patch("*** Update File: keep.txt", "*** Move to: ../out.txt", "@@", "-k", "+K"), new Map([["keep.txt", "k\n"]])));
    expect(moved).toBeInstanceOf(PatchPathError);
  });

  it("refuses to follow a symbolic link out of the root", async () => {
    const outside = tempDir({ "secret.txt": "s\n" });
    const root = tempDir({ "keep.txt": "k\n" });
    symlinkSync(outside, join(root, "link"));
    const error = await rejection(applyPatch(patch("*** Add File: link/evil.txt", "+evil"), root));
    expect(error).toBeInstanceOf(PatchPathError);
    const update = await rejection(applyPatch(patch("*** Update File: link/secret.txt", "@@", "-s", "+t"), root));
    expect(update).toBeInstanceOf(PatchPathError);
    expect(tree(outside)).toEqual({ "secret.txt": "s\n" });
  });

  it("keeps a file's mode when rewriting it", async () => {
    const root = tempDir({ "run.sh": "echo a\n" });
    chmodSync(join(root, "run.sh"), 0o755);
    await applyPatch(patch("*** Update File: run.sh", "@@", "-echo a", "+echo b"), root);
    expect(statSync(join(root, "run.sh")).mode & 0o777).toBe(0o755);
    expect(readdirSync(root)).toEqual(["run.sh"]);
  });

  it("rejects a target directory that does not exist", async () => {
    const error = await rejection(applyPatch(patch("*** Add File: a", "+a"), join(tmpdir(), "lathe-no-such-dir-9f8e7d")));
    expect(error).toBeInstanceOf(Error);
  });
});

describe("planPatch and commitPlan", () => {
  it("plans without writing, then commits exactly the plan", async () => {
    const root = tempDir({ "a.txt": "one\n" });
    const changes = await planPatch(patch("*** Update File: a.txt", "@@", "-one", "+two", "*** Add File: b/c.txt", "+c"), root);
    expect(tree(root)).toEqual({ "a.txt": "one\n" });
    expect(changes.map((c) => c.newContent)).toEqual(["two\n", "c\n"]);
    await commitPlan(changes, root);
    expect(tree(root)).toEqual({ "a.txt": "two\n", "b/": "", "b/c.txt": "c\n" });
  });

  it("refuses to commit over a file that changed after planning", async () => {
    const root = tempDir({ "a.txt": "one\n", "b.txt": "b\n" });
    const changes = await planPatch(patch("*** Update File: b.txt", "@@", "-b", "+B", "*** Update File: a.txt", "@@", "-one", "+two"), root);
    writeFileSync(join(root, "a.txt"), "one\nedited elsewhere\n");
    const error = await rejection(commitPlan(changes, root));
    expect(error).toMatchObject({ name: "PatchApplyError", code: "stale", path: "a.txt" });
    expect(tree(root)).toEqual({ "a.txt": "one\nedited elsewhere\n", "b.txt": "b\n" });
  });
});

/** A real directory whose N-th write fails, to prove the rollback. */
class FailingFileSystem extends DirectoryFileSystem {
  private writes = 0;
  constructor(root: string, private readonly failOn: number) {
    super(root);
  }
  override async writeFile(path: string, content: string): Promise<void> {
    if (++this.writes === this.failOn) throw new Error("disk full");
    return super.writeFile(path, content);
  }
}

describe("atomic commit", () => {
  it("restores every file and removes created directories when a write fails midway", async () => {
    const original = { "a.txt": "a\n", "gone.txt": "g\n", "m/src.txt": "s\n" };
    for (const failOn of [1, 2, 3]) {
      const root = tempDir(original);
      const before = tree(root);
      const fs: PatchFileSystem = new FailingFileSystem(root, failOn);
      const error = await rejection(
        applyPatch(
          patch(
            "*** Delete File: gone.txt",
            "*** Update File: a.txt",
            "@@",
            "-a",
            "+A",
            "*** Add File: deep/new/dir/n.txt",
            "+n",
            "*** Update File: m/src.txt",
            "*** Move to: elsewhere/dst.txt",
            "@@",
            "-s",
            "+S",
          ),
          fs,
        ),
      );
      expect(error, `fail on write ${failOn}`).toMatchObject({ name: "PatchApplyError", code: "write_failed" });
      expect(error.message).toMatch(/nothing changed/);
      expect(tree(root), `fail on write ${failOn}`).toEqual(before);
    }
  });

  it("writes nothing when a later file of the patch does not fit", async () => {
    const root = tempDir({ "a.txt": "a\n", "b.txt": "b\n" });
    const error = await rejection(
      applyPatch(patch("*** Update File: a.txt", "@@", "-a", "+A", "*** Add File: x/y.txt", "+y", "*** Delete File: missing.txt"), root),
    );
    expect(error).toMatchObject({ code: "file_not_found", path: "missing.txt" });
    expect(tree(root)).toEqual({ "a.txt": "a\n", "b.txt": "b\n" });
  });
});
