import { describe, expect, it } from "vitest";
import { PatchParseError, parsePatch } from "../index.js";

function parseError(text: string): PatchParseError {
  try {
    parsePatch(text);
  } catch (error) {
    expect(error).toBeInstanceOf(PatchParseError);
    return error as PatchParseError;
  }
  throw new Error("expected a parse error");
}

describe("parsePatch", () => {
  it("parses add, delete, update with move, chunks with context and end-of-file", () => {
    const { hunks } = parsePatch(
      [
        "*** Begin Patch",
        "*** Add File: a.txt",
        "+one",
        "+two",
        "*** Delete File: b.txt",
        "*** Update File: c.txt",
        "*** Move to: d/c.txt",
        "@@ class C:",
        " keep",
        "-old",
        "+new",
        "@@",
        "-last",
        "+LAST",
        "*** End of File",
        "*** End Patch",
      ].join("\n"),
    );
    expect(hunks).toHaveLength(3);
    expect(hunks[0]).toEqual({ type: "add", path: "a.txt", contents: "one\ntwo\n", line: 2 });
    expect(hunks[1]).toEqual({ type: "delete", path: "b.txt", line: 5 });
    const update = hunks[2]!;
    if (update.type !== "update") throw new Error("expected update");
    expect(update.movePath).toBe("d/c.txt");
    expect(update.chunks).toHaveLength(2);
    expect(update.chunks[0]).toMatchObject({ changeContext: "class C:", oldLines: ["keep", "old"], newLines: ["keep", "new"], isEndOfFile: false, line: 8 });
    expect(update.chunks[1]).toMatchObject({ oldLines: ["last"], newLines: ["LAST"], isEndOfFile: true });
  });

  it("accepts a first chunk without @@, blank lines as empty context, and unified hunk headers", () => {
    const { hunks } = parsePatch("*** Begin Patch\n*** Update File: f\n a\n\n-b\n@@ -10,3 +10,3 @@ fn main\n-c\n+d\n*** End Patch\n");
    const update = hunks[0]!;
    if (update.type !== "update") throw new Error("expected update");
    expect(update.chunks[0]!.oldLines).toEqual(["a", "", "b"]);
    expect(update.chunks[1]!.changeContext).toBeUndefined();
  });

  it("unwraps heredocs and code fences, tolerates CRLF and padded markers", () => {
    for (const text of [
      "apply_patch <<'EOF'\n*** Begin Patch\n*** Delete File: x\n*** End Patch\nEOF\n",
      "cat <<EOF\n*** Begin Patch\n*** Delete File: x\n*** End Patch\nEOF",
      '<<"PATCH"\n*** Begin Patch\n*** Delete File: x\n*** End Patch\nPATCH\n',
      "```diff\n*** Begin Patch\n*** Delete File: x\n*** End Patch\n```\n",
      "*** Begin Patch\r\n*** Delete File: x\r\n*** End Patch\r\n",
      "\n\n  *** Begin Patch  \n\t*** Delete File:   x  \n *** End Patch \n\n",
    ]) {
      expect(parsePatch(text).hunks).toEqual([{ type: "delete", path: "x", line: expect.any(Number) }]);
    }
  });

  it("reads a blank line between + lines of an added file as an empty line", () => {
    expect(parsePatch("*** Begin Patch\n*** Add File: a\n+x\n\n+y\n*** End Patch").hunks[0]).toMatchObject({ contents: "x\n\ny\n" });
  });

  it("names the line of each error", () => {
    expect(parseError("").line).toBe(1);
    expect(parseError("hello\n*** End Patch").line).toBe(1);
    expect(parseError("*** Begin Patch\n*** Add File: a\n+x\n").message).toMatch(/last line must be '\*\*\* End Patch'/);
    expect(parseError("*** Begin Patch\n*** End Patch").message).toMatch(/no file operations/);
    const unknown = parseError("*** Begin Patch\n*** Frobnicate File: foo\n*** End Patch");
    expect(unknown.line).toBe(2);
    expect(unknown.lineText).toBe("*** Frobnicate File: foo");
    expect(unknown.message).toMatch(/not a valid hunk header/);
    expect(parseError("*** Begin Patch\n*** Update File: a\n*** End Patch").line).toBe(2);
    expect(parseError("*** Begin Patch\n*** Update File: a\n@@garbage\n-x\n*** End Patch").line).toBe(3);
    expect(parseError("*** Begin Patch\n*** Update File: a\n@@\n-x\nstray\n*** End Patch").line).toBe(5);
    expect(parseError("*** Begin Patch\n*** Update File: a\n@@\n@@\n-x\n*** End Patch").line).toBe(3);
    expect(parseError("*** Begin Patch\n*** Add File:   \n*** End Patch").line).toBe(2);
    expect(parseError("*** Begin Patch\n*** Delete File: a\n*** End Patch\n*** Delete File: b\n*** End Patch").line).toBe(3);
  });
});
