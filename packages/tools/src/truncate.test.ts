import { readFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tempWorkspace, testContext } from "./test-context.js";
import { cutMiddle, cutText, truncateOutput } from "./truncate.js";
import { removeSessionData } from "./workspace-path.js";

let ws: Awaited<ReturnType<typeof tempWorkspace>>;
beforeEach(async () => {
  ws = await tempWorkspace();
});
afterEach(async () => ws.cleanup());

describe("truncation", () => {
  it("leaves output within the limits alone", async () => {
    const out = await truncateOutput("a\nb", testContext(ws.dir));
    expect(out).toEqual({ output: "a\nb", truncated: false });
  });

  it("cuts past 2,000 lines, says how much was cut, and keeps the full text until the session is removed", async () => {
    const ctx = testContext(ws.dir);
    const text = Array.from({ length: 2500 }, (_, i) => `l${i + 1}`).join("\n");
    const out = await truncateOutput(text, ctx);
    expect(out.truncated).toBe(true);
    expect(out.output.startsWith("l1\nl2\n")).toBe(true);
    expect(out.output).toContain("l2000\n\n[output truncated:");
    expect(out.output).toContain("500 whole lines");
    expect(out.output).toContain(out.outputPath!);
    expect(await readFile(out.outputPath!, "utf8")).toBe(text);
    await removeSessionData(ctx);
    expect(existsSync(out.outputPath!)).toBe(false);
  });

  it("cuts past 50 KB, keeping the tail when asked, and cuts inside a single huge line", () => {
    const lines = Array.from({ length: 1000 }, (_, i) => `${i}`.padEnd(99, "x"));
    const tail = cutText(lines.join("\n"), { maxLines: 2000, maxBytes: 50 * 1024 }, "tail");
    expect(Buffer.byteLength(tail.kept)).toBeLessThanOrEqual(50 * 1024);
    expect(tail.kept.endsWith(lines[999]!)).toBe(true);
    expect(tail.cutLines).toBe(1000 - tail.kept.split("\n").length);
    const huge = cutText("é".repeat(100_000), { maxLines: 2000, maxBytes: 1000 }, "head");
    expect(Buffer.byteLength(huge.kept)).toBeLessThanOrEqual(1000);
    expect(huge.kept).toBe("é".repeat(500));
  });
});

describe("cutMiddle", () => {
  it("keeps both ends within the limits and counts the middle", () => {
    const text = Array.from({ length: 100 }, (_, i) => `l${i}`).join("\n");
    const cut = cutMiddle(text, { maxLines: 10, maxBytes: 10_000 })!;
    expect(cut.head.split("\n")).toEqual(["l0", "l1", "l2", "l3", "l4"]);
    expect(cut.tail.split("\n")).toEqual(["l95", "l96", "l97", "l98", "l99"]);
    expect(cut.cutLines).toBe(90);
    expect(cut.cutBytes).toBe(Buffer.byteLength(text) - Buffer.byteLength(cut.head) - Buffer.byteLength(cut.tail));
  });

  it("splits the byte budget between the ends and never keeps a line twice", () => {
    const text = Array.from({ length: 50 }, (_, i) => `${i}`.padEnd(100, ".")).join("\n");
    const cut = cutMiddle(text, { maxLines: 2000, maxBytes: 1000 })!;
    expect(Buffer.byteLength(cut.head) + Buffer.byteLength(cut.tail)).toBeLessThanOrEqual(1000);
    expect(cut.head.startsWith("0.")).toBe(true);
    expect(cut.tail.endsWith("49".padEnd(100, "."))).toBe(true);
    const shown = [...cut.head.split("\n"), ...cut.tail.split("\n")];
    expect(new Set(shown).size).toBe(shown.length);
  });

  it("leaves text within the limits alone", () => {
    expect(cutMiddle("a\nb", { maxLines: 10, maxBytes: 100 })).toBeUndefined();
  });
});
