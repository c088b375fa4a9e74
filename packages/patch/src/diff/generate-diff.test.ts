import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { generateDiff, trimDiff } from "../index.js";

const work = mkdtempSync(join(tmpdir(), "lathe-diff-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Applies a diff with `git apply` to `before` and returns the result. */
function gitApply(before: string | null, diff: string, path = "f.txt"): string | null {
  const dir = mkdtempSync(join(work, "case-"));
  if (before !== null) writeFileSync(join(dir, path), before);
  writeFileSync(join(dir, "change.diff"), diff);
  execFileSync("git", ["apply", "--unsafe-paths", "change.diff"], { cwd: dir, stdio: "pipe" });
  try {
    return readFileSync(join(dir, path), "utf8");
  } catch {
    return null;
  }
}

describe("generateDiff", () => {
  it("produces a git-style diff with 3 lines of context and stats", () => {
    const before = ["1", "2", "3", "4", "5", "6", "7", "8", "9"].join("\n") + "\n";
    const after = before.replace("5\n", "five\n");
    const { diff, additions, removals, binary } = generateDiff(before, after, "src/n.txt");
    expect(diff).toBe("--- a/src/n.txt\n+++ b/src/n.txt\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n");
    expect({ additions, removals, binary }).toEqual({ additions: 1, removals: 1, binary: false });
  });

  it("returns an empty diff for identical content", () => {
    expect(generateDiff("a\n", "a\n", "x")).toEqual({ diff: "", additions: 0, removals: 0, binary: false });
  });

  it("diffs new and deleted files against /dev/null", () => {
    const added = generateDiff(null, "a\nb\n", "new.txt");
    expect(added.diff).toBe("--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1,2 @@\n+a\n+b\n");
    expect(added.additions).toBe(2);
    const deleted = generateDiff("a\n", null, "old.txt");
    expect(deleted.diff).toBe("--- a/old.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-a\n");
    expect(deleted.removals).toBe(1);
  });

  it("marks a missing final newline", () => {
    const { diff } = generateDiff("a\nb", "a\nc", "x");
    expect(diff).toContain("-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n");
    const onlyNewline = generateDiff("a", "a\n", "x");
    expect(onlyNewline.diff).toContain("-a\n\\ No newline at end of file\n+a\n");
  });

  it("keeps CR of CRLF lines so the diff applies byte for byte", () => {
    const before = "one\r\ntwo\r\nthree\r\n";
    const after = "one\r\nTWO\r\nthree\r\n";
    const { diff } = generateDiff(before, after, "f.txt");
    expect(diff).toContain("-two\r\n+TWO\r\n");
    expect(gitApply(before, diff)).toBe(after);
  });

  it("reports binary content without diffing it", () => {
    const result = generateDiff("a\u0000b", "a\u0000c", "img.png");
    expect(result).toEqual({ diff: "Binary files a/img.png and b/img.png differ\n", additions: 0, removals: 0, binary: true });
    expect(generateDiff(null, "\u0000", "n.bin").diff).toBe("Binary files /dev/null and b/n.bin differ\n");
  });

  it("names both paths of a move", () => {
    expect(generateDiff("a\n", "b\n", "old.txt", { newPath: "new.txt" }).diff.startsWith("--- a/old.txt\n+++ b/new.txt\n")).toBe(true);
  });

  it("always produces a diff that git apply turns into the new file", () => {
    const line = fc.constantFrom("a", "b", "c", "}", "", "  x", "y\r", "long line of text");
    const text = fc.tuple(fc.array(line, { maxLength: 30 }), fc.boolean()).map(([ls, nl]) => (ls.length ? ls.join("\n") + (nl ? "\n" : "") : ""));
    fc.assert(
      fc.property(text, text, (before, after) => {
        const { diff, additions, removals } = generateDiff(before, after, "f.txt");
        if (before === after) {
          expect(diff).toBe("");
          return;
        }
        expect(gitApply(before, diff)).toBe(after);
        const counted = diff.split("\n").filter((l) => /^[+-]/.test(l) && !/^(\+\+\+|---) /.test(l));
        expect(additions + removals).toBe(counted.length);
      }),
      { numRuns: 60 },
    );
  });
});

describe("trimDiff", () => {
  it("removes the indentation every hunk line shares", () => {
    const { diff } = generateDiff("        if (a) {\n            b();\n        }\n", "        if (a) {\n            c();\n        }\n", "x.ts");
    expect(trimDiff(diff)).toBe("--- a/x.ts\n+++ b/x.ts\n@@ -1,3 +1,3 @@\n if (a) {\n-    b();\n+    c();\n }\n");
  });

  it("leaves a diff alone when a line has no indentation or indentation differs in kind", () => {
    const flat = generateDiff("a\n  b\n", "a\n  c\n", "x").diff;
    expect(trimDiff(flat)).toBe(flat);
    const mixed = generateDiff("\ta\n    b\n", "\ta\n    c\n", "x").diff;
    expect(trimDiff(mixed)).toBe(mixed);
  });
});
