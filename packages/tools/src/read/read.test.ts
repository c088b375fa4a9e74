import { mkdir, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BinaryFileError, FileNotFoundError, InvalidPathError, ToolInputError } from "../errors.js";
import { fileRecord } from "../read-guard.js";
import { tempWorkspace, testContext } from "../test-context.js";
import { readTool } from "./read.js";

let ws: Awaited<ReturnType<typeof tempWorkspace>>;
beforeEach(async () => {
  ws = await tempWorkspace();
});
afterEach(async () => ws.cleanup());

describe("read", () => {
  it("returns numbered lines with an end-of-file footer and records the read", async () => {
    await writeFile(path.join(ws.dir, "a.txt"), "one\ntwo\nthree\n");
    const ctx = testContext(ws.dir);
    const result = await readTool.execute({ path: "a.txt" }, ctx);
    expect(result.output).toBe("     1\tone\n     2\ttwo\n     3\tthree\n\n(End of file: 3 lines.)");
    expect(result.metadata).toMatchObject({ kind: "file", total: 3, truncated: false });
    expect(ctx.asks).toEqual([{ permission: "read", patterns: ["a.txt"] }]);
    expect(fileRecord(ctx, path.join(ws.dir, "a.txt"))).toBeDefined();
  });

  it("pages with offset and limit and says where to continue", async () => {
    const lines = Array.from({ length: 50 }, (_, i) => `line ${i + 1}`).join("\n");
    await writeFile(path.join(ws.dir, "long.txt"), lines);
    const result = await readTool.execute({ path: "long.txt", offset: 10, limit: 5 }, testContext(ws.dir));
    expect(result.output.split("\n").slice(0, 5)).toEqual([10, 11, 12, 13, 14].map((n) => `${String(n).padStart(6)}\tline ${n}`));
    expect(result.output).toContain("Lines 10-14 of 50");
    expect(result.output).toContain("offset=15");
    expect(result.metadata?.truncated).toBe(true);
  });

  it("defaults to 2,000 lines and cuts long lines at 2,000 characters", async () => {
    const lines = Array.from({ length: 2500 }, (_, i) => (i === 0 ? "x".repeat(5000) : `l${i}`)).join("\n");
    await writeFile(path.join(ws.dir, "big.txt"), lines);
    const result = await readTool.execute({ path: "big.txt" }, testContext(ws.dir));
    const first = result.output.split("\n")[0]!;
    expect(first).toContain("x".repeat(2000));
    expect(first).not.toContain("x".repeat(2001));
    expect(first).toContain("cut at 2000 characters");
    expect(result.output).toContain("offset=2001");
  });

  it("stops at 50 KB of output and continues from there", async () => {
    const lines = Array.from({ length: 1000 }, () => "y".repeat(200)).join("\n");
    await writeFile(path.join(ws.dir, "wide.txt"), lines);
    const result = await readTool.execute({ path: "wide.txt" }, testContext(ws.dir));
    expect(Buffer.byteLength(result.output)).toBeLessThan(52 * 1024);
    expect(result.output).toMatch(/Use offset=\d+ to read on/);
  });

  it("rejects an offset past the end", async () => {
    await writeFile(path.join(ws.dir, "a.txt"), "one\n");
    await expect(readTool.execute({ path: "a.txt", offset: 5 }, testContext(ws.dir))).rejects.toBeInstanceOf(ToolInputError);
  });

  it("lists a directory", async () => {
    await mkdir(path.join(ws.dir, "src"));
    await writeFile(path.join(ws.dir, "b.txt"), "");
    const result = await readTool.execute({ path: "." }, testContext(ws.dir));
    expect(result.output).toContain("b.txt\nsrc/");
    expect(result.metadata?.kind).toBe("directory");
  });

  it("suggests similar names for a missing file", async () => {
    await writeFile(path.join(ws.dir, "config.json"), "{}");
    await writeFile(path.join(ws.dir, "config.yaml"), "");
    const error = await readTool.execute({ path: "confg.json" }, testContext(ws.dir)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FileNotFoundError);
    expect((error as FileNotFoundError).suggestions[0]).toBe(path.join(ws.dir, "config.json"));
  });

  it("refuses binary files by NUL byte, by share of control bytes and by extension", async () => {
    await writeFile(path.join(ws.dir, "blob"), Buffer.from([0x41, 0x00, 0x42]));
    await writeFile(path.join(ws.dir, "noise"), Buffer.from(Array.from({ length: 100 }, (_, i) => (i % 2 ? 1 : 65))));
    await writeFile(path.join(ws.dir, "lib.so"), "looks like text");
    for (const name of ["blob", "noise", "lib.so"]) {
      await expect(readTool.execute({ path: name }, testContext(ws.dir))).rejects.toBeInstanceOf(BinaryFileError);
    }
  });

  it("returns images and PDFs as attachments", async () => {
    const png = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex");
    await writeFile(path.join(ws.dir, "pic.png"), png);
    const result = await readTool.execute({ path: "pic.png" }, testContext(ws.dir));
    expect(result.attachments).toEqual([{ mime: "image/png", filename: "pic.png", url: `data:image/png;base64,${png.toString("base64")}` }]);
    await writeFile(path.join(ws.dir, "doc.pdf"), "%PDF-1.4");
    const pdf = await readTool.execute({ path: "doc.pdf" }, testContext(ws.dir));
    expect(pdf.attachments?.[0]?.mime).toBe("application/pdf");
  });

  it("rejects empty paths and NUL bytes", async () => {
    await expect(readTool.execute({ path: "" }, testContext(ws.dir))).rejects.toBeInstanceOf(InvalidPathError);
    await expect(readTool.execute({ path: "a\0b" }, testContext(ws.dir))).rejects.toBeInstanceOf(InvalidPathError);
  });

  it("asks external_directory for a path outside the workspace and through a symlink that leads out", async () => {
    const outside = await tempWorkspace();
    try {
      await writeFile(path.join(outside.dir, "secret.txt"), "s\n");
      await symlink(outside.dir, path.join(ws.dir, "link"));
      for (const p of [path.join(outside.dir, "secret.txt"), "link/secret.txt", "../" + path.basename(outside.dir) + "/secret.txt"]) {
        const ctx = testContext(ws.dir);
        await readTool.execute({ path: p }, ctx);
        expect(ctx.asks[0]).toMatchObject({ permission: "external_directory", patterns: [`${outside.dir}/*`] });
      }
      const denied = testContext(ws.dir, {
        decide: (r) => {
          if (r.permission === "external_directory") throw new Error("denied");
        },
      });
      await expect(readTool.execute({ path: "link/secret.txt" }, denied)).rejects.toThrow("denied");
    } finally {
      await outside.cleanup();
    }
  });

  it("refuses a path that is not a regular file", async () => {
    await expect(readTool.execute({ path: "/dev/null" }, testContext(ws.dir))).rejects.toBeInstanceOf(InvalidPathError);
  });
});
