import { existsSync, mkdirSync, readFileSync, statSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { Snapshots } from "./snapshots.js";
import { pictureOf, sh, TempDirs, userGit } from "./test-workspace.js";

const temp = new TempDirs();
afterEach(() => temp.cleanup());

const MiB = 1024 * 1024;

function snapshotsFor(ws: string, extra: { maxFileSize?: number } = {}): Snapshots {
  return new Snapshots({ workspace: ws, dataDir: temp.make("lathe-data-"), ...extra });
}

/**
 * Every file of the user's `.git` with its bytes and mtime. Objects are compared by their bytes:
 * the shadow repository borrows them, and git refreshes the mtime of an object it would otherwise
 * write again (which keeps it from being pruned).
 */
function gitDirPicture(ws: string): Map<string, string> {
  const picture = pictureOf(join(ws, ".git"));
  for (const path of picture.keys()) if (!path.startsWith("objects/")) picture.set(path, `${picture.get(path)}@${statSync(join(ws, ".git", path)).mtimeMs}`);
  return picture;
}

describe("Snapshots: the user's repository", () => {
  it("works in a workspace that is not a git repository and creates no .git there", async () => {
    const ws = temp.make();
    writeFileSync(join(ws, "a"), "1");
    const snapshots = snapshotsFor(ws);
    const tree = await snapshots.track();
    writeFileSync(join(ws, "a"), "2");
    expect(await snapshots.changedFiles(tree)).toEqual(["a"]);
    await snapshots.restore(tree);
    expect(readFileSync(join(ws, "a"), "utf8")).toBe("1");
    expect(existsSync(join(ws, ".git"))).toBe(false);
    expect(pictureOf(ws)).toEqual(new Map([["a", `file:-:${Buffer.from("1").toString("base64")}`]]));
  });

  it("leaves a git workspace's own .git untouched: HEAD, index (bytes and mtime), status", async () => {
    const ws = temp.make();
    userGit(ws, "init", "-q");
    sh(ws, "echo committed > c.txt && echo staged > s.txt && mkdir sub && echo x > sub/x");
    userGit(ws, "add", "c.txt", "sub/x");
    userGit(ws, "commit", "-q", "-m", "first");
    userGit(ws, "add", "s.txt");
    sh(ws, "echo modified >> c.txt && echo untracked > u.txt");
    const status = () => userGit(ws, "--no-optional-locks", "status", "--porcelain=v2", "--untracked-files=all");
    const head = userGit(ws, "rev-parse", "HEAD");
    const statusBefore = status();
    const gitBefore = gitDirPicture(ws);

    const snapshots = snapshotsFor(ws);
    const first = await snapshots.track();
    sh(ws, "echo agent >> c.txt && rm sub/x && echo made > made.txt && mv s.txt s2.txt");
    const second = await snapshots.track();
    expect(await snapshots.changedFiles(first, second)).toEqual(["c.txt", "made.txt", "s.txt", "s2.txt", "sub/x"]);
    await snapshots.diff(first);
    await snapshots.restore(first);
    await snapshots.revertFiles(second, ["made.txt"]);
    await snapshots.restore(first);
    await snapshots.gc({ force: true });

    expect(userGit(ws, "rev-parse", "HEAD")).toBe(head);
    expect(status()).toBe(statusBefore);
    expect(gitDirPicture(ws)).toEqual(gitBefore);
    // The shadow repository does not record the user's .git.
    expect(await snapshots.changedFiles("4b825dc642cb6eb9a060e54bf8d69288fbee4904")).not.toContainEqual(expect.stringMatching(/^\.git\//));
  });

  it("is not steered by the user's git config or GIT_* variables", async () => {
    const ws = temp.make();
    const home = temp.make("lathe-home-");
    writeFileSync(join(home, ".gitconfig"), "[core]\n\tautocrlf = true\n\texcludesFile = ~/ignore-all\n\thooksPath = ~/hooks\n");
    writeFileSync(join(home, "ignore-all"), "*.txt\n");
    const saved = { HOME: process.env.HOME, GIT_DIR: process.env.GIT_DIR, GIT_INDEX_FILE: process.env.GIT_INDEX_FILE };
    process.env.HOME = home;
    process.env.GIT_DIR = join(home, "elsewhere");
    process.env.GIT_INDEX_FILE = join(home, "index");
    try {
      const snapshots = snapshotsFor(ws);
      writeFileSync(join(ws, "dos.txt"), "a\r\nb\n");
      const tree = await snapshots.track();
      writeFileSync(join(ws, "dos.txt"), "changed");
      expect(await snapshots.changedFiles(tree)).toEqual(["dos.txt"]);
      await snapshots.restore(tree);
      expect(readFileSync(join(ws, "dos.txt"), "latin1")).toBe("a\r\nb\n");
      expect(existsSync(join(home, "elsewhere"))).toBe(false);
      expect(existsSync(join(home, "index"))).toBe(false);
    } finally {
      for (const [key, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
    }
  });

  it("stores bytes as they are on disk, whatever the workspace's .gitattributes say", async () => {
    const ws = temp.make();
    writeFileSync(join(ws, ".gitattributes"), "* text eol=crlf\n*.dat filter=lfs diff=lfs merge=lfs -text\n*.enc working-tree-encoding=UTF-16\n");
    writeFileSync(join(ws, "mixed.txt"), "lf\ncrlf\r\nlone\rcr");
    writeFileSync(join(ws, "x.dat"), "not an lfs pointer");
    writeFileSync(join(ws, "y.enc"), "plain utf8 é");
    const snapshots = snapshotsFor(ws);
    const tree = await snapshots.track();
    const picture = pictureOf(ws);
    sh(ws, "rm mixed.txt x.dat y.enc");
    await snapshots.restore(tree);
    expect(pictureOf(ws)).toEqual(picture);
  });

  it("skips nested git repositories and a data directory kept inside the workspace", async () => {
    const ws = temp.make();
    mkdirSync(join(ws, ".lathe"));
    writeFileSync(join(ws, ".lathe/sessions.db"), "the agent's storage");
    mkdirSync(join(ws, "vendor/lib"), { recursive: true });
    userGit(join(ws, "vendor/lib"), "init", "-q");
    writeFileSync(join(ws, "vendor/lib/code.js"), "1");
    writeFileSync(join(ws, "top.txt"), "top");
    const snapshots = new Snapshots({ workspace: ws, dataDir: join(ws, ".lathe") });
    const tree = await snapshots.track();
    expect(await snapshots.changedFiles("4b825dc642cb6eb9a060e54bf8d69288fbee4904", tree)).toEqual(["top.txt"]);
    expect(await snapshots.track()).toBe(tree);
    writeFileSync(join(ws, ".lathe/sessions.db"), "more storage");
    writeFileSync(join(ws, "top.txt"), "changed");
    await snapshots.restore(tree);
    expect(readFileSync(join(ws, ".lathe/sessions.db"), "utf8")).toBe("more storage");
    expect(readFileSync(join(ws, "top.txt"), "utf8")).toBe("top");
  });
});

describe("Snapshots: ignore rules", () => {
  it("keeps its own repository out when the data directory is the workspace", async () => {
    const ws = temp.make();
    writeFileSync(join(ws, "a"), "1");
    const snapshots = new Snapshots({ workspace: ws, dataDir: ws });
    const tree = await snapshots.track();
    expect(await snapshots.changedFiles("4b825dc642cb6eb9a060e54bf8d69288fbee4904", tree)).toEqual(["a"]);
    expect(await snapshots.track()).toBe(tree);
  });

  it("respects .gitignore files (nested, negated) and .git/info/exclude; restore leaves ignored files alone", async () => {
    const ws = temp.make();
    userGit(ws, "init", "-q");
    writeFileSync(join(ws, ".gitignore"), "*.log\nbuild/\n!keep.log\n");
    mkdirSync(join(ws, "pkg"));
    writeFileSync(join(ws, "pkg/.gitignore"), "local.txt\n");
    writeFileSync(join(ws, ".git/info/exclude"), "secret.env\n");
    sh(ws, "echo a > app.js && echo l > debug.log && echo k > keep.log && mkdir build && echo b > build/out.js && echo s > secret.env && echo p > pkg/local.txt && echo q > pkg/other.txt");
    const snapshots = snapshotsFor(ws);
    const tree = await snapshots.track();
    const recorded = await snapshots.changedFiles("4b825dc642cb6eb9a060e54bf8d69288fbee4904", tree);
    expect(recorded).toEqual([".gitignore", "app.js", "keep.log", "pkg/.gitignore", "pkg/other.txt"]);

    sh(ws, "echo more >> debug.log && echo new > build/new.js && echo changed > secret.env && echo x > new.log && echo app2 > app.js");
    expect(await snapshots.changedFiles(tree)).toEqual(["app.js"]);
    await snapshots.restore(tree);
    expect(readFileSync(join(ws, "app.js"), "utf8")).toBe("a\n");
    // Ignored files, old and new, are as the user left them.
    expect(readFileSync(join(ws, "debug.log"), "utf8")).toBe("l\nmore\n");
    expect(readFileSync(join(ws, "build/new.js"), "utf8")).toBe("new\n");
    expect(readFileSync(join(ws, "secret.env"), "utf8")).toBe("changed\n");
    expect(existsSync(join(ws, "new.log"))).toBe(true);
  });

  it("drops files from snapshots once an ignore rule covers them (.gitignore or info/exclude edited)", async () => {
    const ws = temp.make();
    userGit(ws, "init", "-q");
    sh(ws, "mkdir dist && echo 1 > dist/a.js && echo 2 > b.tmp && echo 3 > c.txt");
    const snapshots = snapshotsFor(ws);
    const first = await snapshots.track();
    writeFileSync(join(ws, ".gitignore"), "dist/\n");
    const second = await snapshots.track();
    expect(await snapshots.changedFiles(first, second)).toEqual([".gitignore", "dist/a.js"]);
    writeFileSync(join(ws, ".git/info/exclude"), "*.tmp\n");
    const third = await snapshots.track();
    expect(await snapshots.changedFiles(second, third)).toEqual(["b.tmp"]);
  });
});

describe("Snapshots: large files", () => {
  it("skips files over 2 MiB by default and records one of exactly 2 MiB", async () => {
    const ws = temp.make();
    writeFileSync(join(ws, "exact.bin"), Buffer.alloc(2 * MiB, 1));
    writeFileSync(join(ws, "over.bin"), Buffer.alloc(2 * MiB + 1, 2));
    writeFileSync(join(ws, "small.txt"), "s");
    const snapshots = snapshotsFor(ws);
    const tree = await snapshots.track();
    expect(await snapshots.changedFiles("4b825dc642cb6eb9a060e54bf8d69288fbee4904", tree)).toEqual(["exact.bin", "small.txt"]);
    // The shadow repository lists it in its generated exclude file.
    expect(readFileSync(join(snapshots.gitDir, "info", "exclude"), "utf8")).toContain("/over.bin\n");
  });

  it("follows files across the limit: grown files leave, shrunk ones return; restore leaves large files alone", async () => {
    const ws = temp.make();
    const limit = 1000;
    writeFileSync(join(ws, "grows.txt"), "small");
    writeFileSync(join(ws, "big [1] *.bin"), Buffer.alloc(limit + 1, 7));
    const snapshots = snapshotsFor(ws, { maxFileSize: limit });
    const first = await snapshots.track();
    expect(await snapshots.changedFiles("4b825dc642cb6eb9a060e54bf8d69288fbee4904", first)).toEqual(["grows.txt"]);

    writeFileSync(join(ws, "grows.txt"), "x".repeat(limit + 1));
    const second = await snapshots.track();
    expect(await snapshots.changedFiles(first, second)).toEqual(["grows.txt"]);
    expect((await snapshots.diff(first, second))[0]).toMatchObject({ status: "deleted" });

    truncateSync(join(ws, "big [1] *.bin"), 10);
    const third = await snapshots.track();
    expect(await snapshots.changedFiles(second, third)).toEqual(["big [1] *.bin"]);

    // Back to `second`: the shrunk file is not in it, so it goes; the large file stays as it is.
    await snapshots.restore(second);
    expect(existsSync(join(ws, "big [1] *.bin"))).toBe(false);
    expect(readFileSync(join(ws, "grows.txt"), "utf8")).toHaveLength(limit + 1);
    // Back to `first`: the small version of grows.txt is what that snapshot holds.
    await snapshots.restore(first);
    expect(readFileSync(join(ws, "grows.txt"), "utf8")).toBe("small");
    expect(await snapshots.track()).toBe(first);
  });
});
