// Property tests of the whole engine: a diff of any edit, rendered as a `*** Begin Patch` update and
// applied, reproduces the edited file; and garbage never escapes as anything but a typed error,
// with the files untouched.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { PatchApplyError, PatchParseError, PatchPathError, applyPatch, diffToPatch, generateDiff } from "../index.js";

const lineText = fc.string({ unit: fc.constantFrom("a", "b", " ", "\t", "{", "}", "*", "-", "+", "@", "é", "“", "x"), maxLength: 12 });

type Edit = { kind: "insert" | "delete" | "replace"; at: number; text: string };
const edit = fc.record({ kind: fc.constantFrom<Edit["kind"]>("insert", "delete", "replace"), at: fc.nat(), text: lineText });

/** A file whose original lines are distinct (the patch format locates chunks by their lines). */
const fileAndEdits = fc
  .tuple(fc.array(lineText, { maxLength: 40 }), fc.array(edit, { maxLength: 8 }), fc.boolean(), fc.constantFrom("\n", "\r\n"))
  .map(([texts, edits, finalNewline, eol]) => {
    const before = texts.map((t, i) => `${i}:${t}`);
    const after = [...before];
    for (const e of edits) {
      const at = after.length === 0 ? 0 : e.at % (after.length + (e.kind === "insert" ? 1 : 0));
      if (e.kind === "insert") after.splice(at, 0, `new ${e.text}`);
      else if (after.length > 0) after.splice(at, 1, ...(e.kind === "replace" ? [`changed ${e.text}`] : []));
    }
    // An empty file has no final-newline state to keep, and a file without any line ending none to
    // give added lines: they get "\n".
    const nl = finalNewline || before.length === 0;
    const ending = before.length >= 2 || (before.length === 1 && nl) ? eol : "\n";
    const join = (lines: string[]): string => (lines.length === 0 ? "" : lines.join(ending) + (nl ? ending : ""));
    return { before: join(before), after: join(after) };
  });

describe("generateDiff → *** Begin Patch → applyPatch", () => {
  it("reproduces the edited file", async () => {
    await fc.assert(
      fc.asyncProperty(fileAndEdits, async ({ before, after }) => {
        fc.pre(before !== after);
        const { diff } = generateDiff(before, after, "f.txt");
        const files = new Map([["f.txt", before]]);
        await applyPatch(diffToPatch(diff), files);
        expect(files.get("f.txt")).toBe(after);
      }),
      { numRuns: 300 },
    );
  });
});

const validPatch = [
  "*** Begin Patch",
  "*** Update File: a.txt",
  "@@",
  " one",
  "-two",
  "+TWO",
  "*** Add File: b.txt",
  "+b",
  "*** Delete File: c.txt",
  "*** End Patch",
];

/** Random text, random lines, and valid patches with lines dropped, duplicated or replaced. */
const garbage = fc.oneof(
  fc.string({ maxLength: 200 }),
  fc.array(fc.oneof(fc.constantFrom(...validPatch, "@@", "*** End of File", "*** Move to: ../x", "+", "-", " "), fc.string({ maxLength: 20 })), { maxLength: 12 }).map((l) => l.join("\n")),
  fc.tuple(fc.nat(validPatch.length - 1), fc.string({ maxLength: 15 }), fc.constantFrom("drop", "replace", "insert")).map(([i, text, how]) => {
    const lines = [...validPatch];
    if (how === "drop") lines.splice(i, 1);
    else if (how === "replace") lines[i] = text;
    else lines.splice(i, 0, text);
    return lines.join("\n");
  }),
);

const initial = { "a.txt": "one\ntwo\nthree\n", "c.txt": "c\n", "keep.txt": "k\n" };
const temps: string[] = [];
afterAll(() => temps.forEach((t) => rmSync(t, { recursive: true, force: true })));

describe("garbage patches", () => {
  it("reject with a typed error and leave a map untouched (or apply as a valid patch)", async () => {
    await fc.assert(
      fc.asyncProperty(garbage, async (text) => {
        const files = new Map(Object.entries(initial));
        try {
          await applyPatch(text, files);
        } catch (error) {
          expect([PatchParseError, PatchApplyError, PatchPathError].some((E) => error instanceof E), String(error)).toBe(true);
          expect(Object.fromEntries(files)).toEqual(initial);
        }
      }),
      { numRuns: 500 },
    );
  });

  it("reject with a typed error and leave a directory untouched", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 120 }), async (text) => {
        const dir = mkdtempSync(join(tmpdir(), "lathe-garbage-"));
        temps.push(dir);
        for (const [p, c] of Object.entries(initial)) writeFileSync(join(dir, p), c);
        const error = await applyPatch(text, dir).then(() => undefined, (e: unknown) => e);
        expect(error).toBeInstanceOf(PatchParseError);
        expect(readdirSync(dir).sort()).toEqual(Object.keys(initial).sort());
        for (const [p, c] of Object.entries(initial)) expect(readFileSync(join(dir, p), "utf8")).toBe(c);
      }),
      { numRuns: 40 },
    );
  });
});
