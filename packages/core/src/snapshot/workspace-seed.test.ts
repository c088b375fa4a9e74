import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { readGitIndex } from "./git-index.js";
import { Snapshots } from "./snapshots.js";
import { pictureOf, sh, TempDirs, userGit } from "./test-workspace.js";

const temp = new TempDirs();
afterEach(() => temp.cleanup());

/** Objects the shadow repository holds itself (not borrowed): loose count and packed count. */
function ownObjects(gitDir: string): { loose: number; packed: number } {
  const out = execFileSync("git", [`--git-dir=${gitDir}`, "count-objects", "-v"], { encoding: "utf8" });
  const field = (name: string) => Number(new RegExp(`^${name}: (\\d+)$`, "m").exec(out)![1]);
  return { loose: field("count"), packed: field("in-pack") };
}

/** The snapshot of the same workspace taken without its .git (so without seeding). */
async function unseededTree(ws: string): Promise<string> {
  const away = join(temp.make("lathe-away-"), "git");
  renameSync(join(ws, ".git"), away);
  try {
    return await new Snapshots({ workspace: ws, dataDir: temp.make("lathe-data-"), maxFileSize: 1000 }).track();
  } finally {
    renameSync(away, join(ws, ".git"));
  }
}

function committedWorkspace(files: number): string {
  const ws = temp.make();
  userGit(ws, "init", "-q");
  for (let i = 0; i < files; i++) {
    mkdirSync(join(ws, `dir${i % 5}`), { recursive: true });
    writeFileSync(join(ws, `dir${i % 5}`, `f${i}.txt`), `file ${i}\n`);
  }
  userGit(ws, "add", "-A");
  userGit(ws, "commit", "-q", "-m", "files");
  return ws;
}

describe("first snapshot of a git workspace, seeded from its index and objects", () => {
  it("hashes only what differs from the index and gives the same tree as staging everything", async () => {
    const ws = committedWorkspace(60);
    sh(ws, "echo changed > dir1/f1.txt && echo new > untracked.txt && rm dir2/f2.txt");
    const snapshots = new Snapshots({ workspace: ws, dataDir: temp.make("lathe-data-"), maxFileSize: 1000 });
    const tree = await snapshots.track();
    // The 58 unchanged files and their trees are borrowed: the shadow repository wrote only the
    // two new blobs and the trees that changed (dir1, dir2 and the root).
    const own = ownObjects(snapshots.gitDir);
    expect(own).toEqual({ loose: 5, packed: 0 });
    expect(tree).toBe(await unseededTree(ws));

    // The seeded snapshot restores like any other, borrowed blobs included.
    sh(ws, "rm -r dir0 && echo again > dir1/f1.txt");
    await snapshots.restore(tree);
    expect(readFileSync(join(ws, "dir0", "f0.txt"), "utf8")).toBe("file 0\n");
    expect(readFileSync(join(ws, "dir1", "f1.txt"), "utf8")).toBe("changed\n");
    // The user's repository is left as it was.
    expect(userGit(ws, "status", "--porcelain").split("\n").filter(Boolean).sort()).toEqual([" D dir2/f2.txt", " M dir1/f1.txt", "?? untracked.txt"]);
  });

  it("keeps the snapshot rules: tracked but ignored, too large, converted by attributes, and intent-to-add files", async () => {
    const ws = committedWorkspace(10);
    writeFileSync(join(ws, "big.bin"), "x".repeat(5000));
    writeFileSync(join(ws, "ignored.log"), "log\n");
    writeFileSync(join(ws, "crlf.txt"), "a\r\nb\r\n");
    writeFileSync(join(ws, ".gitattributes"), "crlf.txt text eol=lf\n");
    userGit(ws, "add", "-A");
    userGit(ws, "commit", "-q", "-m", "more");
    writeFileSync(join(ws, ".gitignore"), "*.log\n");
    writeFileSync(join(ws, "later.txt"), "later\n");
    userGit(ws, "add", "-N", "later.txt");
    const snapshots = new Snapshots({ workspace: ws, dataDir: temp.make("lathe-data-"), maxFileSize: 1000 });
    const tree = await snapshots.track();
    expect(tree).toBe(await unseededTree(ws));
    const files = execFileSync("git", [`--git-dir=${snapshots.gitDir}`, "ls-tree", "-r", "--name-only", tree], { encoding: "utf8" }).split("\n");
    expect(files).not.toContain("big.bin");
    expect(files).not.toContain("ignored.log");
    expect(files).toContain("later.txt");
    // The CRLF file's snapshot is its bytes on disk, not the normalised blob git committed.
    sh(ws, "printf 'changed' > crlf.txt");
    await snapshots.restore(tree);
    expect(readFileSync(join(ws, "crlf.txt"), "utf8")).toBe("a\r\nb\r\n");
  });

  it("a later Snapshots on the same data directory reuses the shadow index: nothing is staged again", async () => {
    const ws = committedWorkspace(20);
    const dataDir = temp.make("lathe-data-");
    const first = await new Snapshots({ workspace: ws, dataDir }).track();
    const again = new Snapshots({ workspace: ws, dataDir });
    expect(await again.track()).toBe(first);
    expect(pictureOf(ws).size).toBe(20);
  });
});

describe("readGitIndex", () => {
  it("reads versions 2, 3 and 4 alike", () => {
    const ws = committedWorkspace(12);
    const paths = (version: string) => {
      userGit(ws, "update-index", "--index-version", version);
      const index = readGitIndex(readFileSync(join(ws, ".git", "index")));
      // git writes version 2 when asked for 3 and no entry needs its extended flags.
      expect(index.version).toBe(version === "3" ? 2 : Number(version));
      return index.entries.map((e) => [e.path, e.mode.toString(8), e.size, e.stage]);
    };
    const v2 = paths("2");
    expect(v2).toHaveLength(12);
    expect(v2[0]).toEqual(["dir0/f0.txt", "100644", 7, 0]);
    expect(paths("3")).toEqual(v2);
    expect(paths("4")).toEqual(v2);
  });

  it("refuses what is not an index", () => {
    expect(() => readGitIndex(Buffer.from("not an index at all, surely not"))).toThrow();
  });
});
