import { chmodSync, mkdirSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { InvalidInputError } from "../errors.js";
import { SnapshotNotFoundError } from "./errors.js";
import { Snapshots } from "./snapshots.js";
import { pictureOf, sh, TempDirs } from "./test-workspace.js";

const temp = new TempDirs();
afterEach(() => temp.cleanup());

function setup(): { ws: string; snapshots: Snapshots } {
  const ws = temp.make();
  return { ws, snapshots: new Snapshots({ workspace: ws, dataDir: temp.make("lathe-data-") }) };
}

/** Bytes that no text decoder round-trips: NUL, invalid UTF-8, CR/LF mixes. */
const BINARY = Buffer.from([0, 1, 2, 0xff, 0xfe, 0x0d, 0x0a, 0x80, 0, 0x0d, 0x7f, 0xc3]);

describe("Snapshots: track and restore", () => {
  it("restores every recorded tree exactly, whether files changed by fs calls or by shell commands", async () => {
    const { ws, snapshots } = setup();
    const trees: string[] = [];
    const pictures: Array<Map<string, string>> = [];
    const record = async () => {
      trees.push(await snapshots.track());
      pictures.push(pictureOf(ws));
    };

    writeFileSync(join(ws, "a.txt"), "one\ntwo\n");
    mkdirSync(join(ws, "src/deep"), { recursive: true });
    writeFileSync(join(ws, "src/deep/x.ts"), "export const x = 1;\n");
    writeFileSync(join(ws, "crlf.txt"), "line\r\nmixed\nend\r\n");
    writeFileSync(join(ws, "blob.bin"), BINARY);
    writeFileSync(join(ws, "run.sh"), "#!/bin/sh\necho hi\n");
    chmodSync(join(ws, "run.sh"), 0o755);
    symlinkSync("a.txt", join(ws, "link"));
    await record();

    // fs edits: modify, create, delete, rename, binary change, mode change, link retarget.
    writeFileSync(join(ws, "a.txt"), "one\nTWO\nthree\n");
    writeFileSync(join(ws, "new.txt"), "fresh\n");
    unlinkSync(join(ws, "crlf.txt"));
    renameSync(join(ws, "src/deep/x.ts"), join(ws, "src/y.ts"));
    writeFileSync(join(ws, "blob.bin"), Buffer.concat([BINARY, BINARY]));
    chmodSync(join(ws, "run.sh"), 0o644);
    unlinkSync(join(ws, "link"));
    symlinkSync("new.txt", join(ws, "link"));
    await record();

    // shell edits: what an agent's bash tool does.
    sh(ws, "mkdir -p gen/out && printf 'built\\n' > gen/out/app.js && mv a.txt A.md && rm -r src && sed -i 's/fresh/stale/' new.txt && printf '\\000\\001' > gen/bytes");
    await record();

    // a file replaced by a directory and a directory by a file
    sh(ws, "rm new.txt && mkdir new.txt && echo inner > new.txt/inner && rm -r gen && echo flat > gen");
    await record();

    expect(new Set(trees).size).toBe(trees.length);
    // Walk back and forth through history: each restore gives exactly that tree, bytes and hash.
    for (const index of [0, 3, 1, 2, 0, 2, 3]) {
      await snapshots.restore(trees[index]!);
      expect(pictureOf(ws)).toEqual(pictures[index]);
      expect(await snapshots.track()).toBe(trees[index]);
    }
  });

  it("gives the same hash for the same files and the empty tree for an empty workspace", async () => {
    const { ws, snapshots } = setup();
    const empty = await snapshots.track();
    expect(empty).toBe("4b825dc642cb6eb9a060e54bf8d69288fbee4904");
    writeFileSync(join(ws, "f"), "x");
    const one = await snapshots.track();
    expect(one).not.toBe(empty);
    expect(await snapshots.track()).toBe(one);
    unlinkSync(join(ws, "f"));
    expect(await snapshots.track()).toBe(empty);
    writeFileSync(join(ws, "f"), "x");
    expect(await snapshots.track()).toBe(one);
  });

  it("sees a change made within the same second as the previous track (racy timestamps)", async () => {
    const { ws, snapshots } = setup();
    writeFileSync(join(ws, "f"), "aaaa");
    const first = await snapshots.track();
    writeFileSync(join(ws, "f"), "bbbb"); // same size, likely same mtime second
    const second = await snapshots.track();
    expect(second).not.toBe(first);
    expect(await snapshots.changedFiles(first, second)).toEqual(["f"]);
  });

  it("restore removes files created since, prunes emptied directories, and can come back (unrevert)", async () => {
    const { ws, snapshots } = setup();
    writeFileSync(join(ws, "keep.txt"), "keep\n");
    const start = await snapshots.track();
    sh(ws, "mkdir -p a/b/c && echo 1 > a/b/c/new.txt && echo changed > keep.txt");
    const latest = await snapshots.track();
    const latestPicture = pictureOf(ws);

    await snapshots.restore(start);
    expect(pictureOf(ws)).toEqual(new Map([["keep.txt", `file:-:${Buffer.from("keep\n").toString("base64")}`]]));
    expect(() => sh(ws, "test -e a")).toThrow();

    await snapshots.restore(latest);
    expect(pictureOf(ws)).toEqual(latestPicture);
  });

  it("restore to the current tree changes nothing", async () => {
    const { ws, snapshots } = setup();
    writeFileSync(join(ws, "f"), "x");
    const tree = await snapshots.track();
    const before = pictureOf(ws);
    await snapshots.restore(tree);
    expect(pictureOf(ws)).toEqual(before);
  });
});

describe("Snapshots: changedFiles and diff", () => {
  it("lists changed paths between trees and against the workspace now, renames as both paths", async () => {
    const { ws, snapshots } = setup();
    writeFileSync(join(ws, "a"), "1\n");
    writeFileSync(join(ws, "b"), "2\n");
    writeFileSync(join(ws, "c"), "3\n");
    const before = await snapshots.track();
    writeFileSync(join(ws, "a"), "1 changed\n");
    renameSync(join(ws, "b"), join(ws, "b2"));
    sh(ws, "rm c && mkdir d && echo 4 > d/e");
    expect(await snapshots.changedFiles(before)).toEqual(["a", "b", "b2", "c", "d/e"]);
    const after = await snapshots.track();
    expect(await snapshots.changedFiles(before, after)).toEqual(["a", "b", "b2", "c", "d/e"]);
    expect(await snapshots.changedFiles(after, after)).toEqual([]);
    expect(await snapshots.changedFiles(after)).toEqual([]);
  });

  it("diffs text with counts and statuses, flags binary files without diffing them", async () => {
    const { ws, snapshots } = setup();
    writeFileSync(join(ws, "text.txt"), "a\nb\nc\n");
    writeFileSync(join(ws, "gone.txt"), "bye\nnow\n");
    writeFileSync(join(ws, "img.bin"), BINARY);
    const before = await snapshots.track();
    writeFileSync(join(ws, "text.txt"), "a\nB\nc\nd\n");
    unlinkSync(join(ws, "gone.txt"));
    writeFileSync(join(ws, "added.txt"), "new\n");
    writeFileSync(join(ws, "img.bin"), Buffer.concat([BINARY, Buffer.from("x")]));

    const diffs = await snapshots.diff(before);
    expect(diffs.map((d) => d.path)).toEqual(["added.txt", "gone.txt", "img.bin", "text.txt"]);
    const byPath = new Map(diffs.map((d) => [d.path, d]));
    expect(byPath.get("text.txt")).toMatchObject({ status: "modified", before: "a\nb\nc\n", after: "a\nB\nc\nd\n", additions: 2, removals: 1, binary: false });
    expect(byPath.get("text.txt")!.patch).toContain("-b\n+B\n");
    expect(byPath.get("added.txt")).toMatchObject({ status: "added", before: "", after: "new\n", additions: 1, removals: 0, binary: false });
    expect(byPath.get("gone.txt")).toMatchObject({ status: "deleted", before: "bye\nnow\n", after: "", additions: 0, removals: 2, binary: false });
    expect(byPath.get("img.bin")).toMatchObject({ status: "modified", before: "", after: "", additions: 0, removals: 0, binary: true });

    const after = await snapshots.track();
    expect(await snapshots.diff(before, after)).toEqual(diffs);
    // Reverse direction swaps the sides.
    const reverse = new Map((await snapshots.diff(after, before)).map((d) => [d.path, d]));
    expect(reverse.get("added.txt")).toMatchObject({ status: "deleted", removals: 1 });
    expect(reverse.get("text.txt")).toMatchObject({ before: "a\nB\nc\nd\n", after: "a\nb\nc\n", additions: 1, removals: 2 });
  });
});

describe("Snapshots: revertFiles", () => {
  it("restores only the given paths: modified back, created removed, deleted recreated; directories cover their files", async () => {
    const { ws, snapshots } = setup();
    sh(ws, "echo 1 > a && echo 2 > b && mkdir -p dir/sub && echo 3 > dir/sub/c && echo 4 > d");
    const tree = await snapshots.track();
    sh(ws, "echo 1x > a && echo 2x > b && echo new > created && rm d && echo 3x > dir/sub/c && echo more > dir/sub/extra");

    await snapshots.revertFiles(tree, ["a", join(ws, "created"), "d", "dir"]);
    const picture = pictureOf(ws);
    const text = (path: string) => Buffer.from(picture.get(path)!.split(":")[2]!, "base64").toString();
    expect([...picture.keys()].sort()).toEqual(["a", "b", "d", "dir/sub/c"]);
    expect([text("a"), text("b"), text("d"), text("dir/sub/c")]).toEqual(["1\n", "2x\n", "4\n", "3\n"]);
  });

  it("rejects paths outside the workspace and does nothing for an empty list", async () => {
    const { ws, snapshots } = setup();
    writeFileSync(join(ws, "a"), "1");
    const tree = await snapshots.track();
    writeFileSync(join(ws, "a"), "2");
    await expect(snapshots.revertFiles(tree, ["../elsewhere"])).rejects.toBeInstanceOf(InvalidInputError);
    await expect(snapshots.revertFiles(tree, ["/etc/passwd"])).rejects.toBeInstanceOf(InvalidInputError);
    await snapshots.revertFiles(tree, []);
    expect(pictureOf(ws).get("a")).toBe(`file:-:${Buffer.from("2").toString("base64")}`);
  });
});

describe("Snapshots: bad input", () => {
  it("rejects malformed hashes and unknown trees with typed errors", async () => {
    const { ws, snapshots } = setup();
    await snapshots.track();
    await expect(snapshots.restore("not-a-hash")).rejects.toBeInstanceOf(InvalidInputError);
    await expect(snapshots.changedFiles("HEAD")).rejects.toBeInstanceOf(InvalidInputError);
    const unknown = "0123456789abcdef0123456789abcdef01234567";
    const error = await snapshots.restore(unknown).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SnapshotNotFoundError);
    expect((error as SnapshotNotFoundError).hash).toBe(unknown);
    await expect(snapshots.diff(unknown)).rejects.toBeInstanceOf(SnapshotNotFoundError);
    // A blob id is not a tree.
    writeFileSync(join(ws, "f"), "content");
    const tree = await snapshots.track();
    const blob = sh(ws, "git hash-object f").trim();
    await expect(snapshots.restore(blob)).rejects.toBeInstanceOf(SnapshotNotFoundError);
    await expect(snapshots.changedFiles(tree, unknown)).rejects.toBeInstanceOf(SnapshotNotFoundError);
  });

  it("rejects a workspace that is not a directory and invalid options", () => {
    const dir = temp.make();
    writeFileSync(join(dir, "file"), "");
    expect(() => new Snapshots({ workspace: join(dir, "missing"), dataDir: dir })).toThrow(InvalidInputError);
    expect(() => new Snapshots({ workspace: join(dir, "file"), dataDir: dir })).toThrow(InvalidInputError);
    expect(() => new Snapshots({ workspace: dir, dataDir: dir, maxFileSize: -1 })).toThrow(InvalidInputError);
    rmSync(join(dir, "file"));
  });
});
