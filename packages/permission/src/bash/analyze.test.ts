import { describe, expect, it } from "vitest";
import { analyzeCommand } from "./analyze.js";
import { CORPUS, CORPUS_OPTIONS } from "./command-corpus.js";

describe("analyzeCommand — corpus", () => {
  it("has at least 60 commands, each listed once", () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(60);
    expect(new Set(CORPUS.map((c) => `${c.cwd ?? ""}|${c.command}`)).size).toBe(CORPUS.length);
  });

  it.each(CORPUS.map((c) => [JSON.stringify(c.command) + (c.cwd ? ` in ${c.cwd}` : ""), c] as const))("%s", async (_name, c) => {
    const analysis = await analyzeCommand(c.command, { ...CORPUS_OPTIONS, workspace: CORPUS_OPTIONS.cwd, cwd: c.cwd ?? CORPUS_OPTIONS.cwd });
    expect({
      patterns: analysis.patterns,
      variants: analysis.variants.some((v) => v.length > 0) ? analysis.variants : undefined,
      always: analysis.always,
      externalDirectories: analysis.externalDirectories,
      writes: analysis.paths.filter((p) => p.write).map((p) => p.path),
      opaque: analysis.opaque,
    }).toEqual({
      patterns: c.patterns ?? [],
      variants: c.variants,
      always: c.always ?? [],
      externalDirectories: c.externalDirectories ?? [],
      writes: c.writes ?? [],
      opaque: c.opaque ?? false,
    });
  });
});

describe("analyzeCommand — options and input", () => {
  it("defaults the workspace to cwd and home to os.homedir()", async () => {
    const { homedir } = await import("node:os");
    const analysis = await analyzeCommand("cat ~/.profile", { cwd: "/nowhere/ws" });
    expect(analysis.externalDirectories).toEqual([homedir()]);
  });

  it("rejects a missing cwd or a non-string command", async () => {
    await expect(analyzeCommand("ls", {} as never)).rejects.toThrow(TypeError);
    await expect(analyzeCommand(42 as never, { cwd: "/w" })).rejects.toThrow(TypeError);
  });

  it("handles concurrent calls with one parser", async () => {
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => analyzeCommand(`echo ${i} && ls`, { cwd: "/w" })));
    results.forEach((r, i) => expect(r.patterns).toEqual([`echo ${i}`, "ls"]));
  });

  it("gives up on code nested too deeply, as opaque", async () => {
    let command = "rm x";
    for (let i = 0; i < 8; i++) command = `eval ${JSON.stringify(command).replaceAll("$", "\\$")}`;
    const analysis = await analyzeCommand(command, { cwd: "/w" });
    expect(analysis.opaque).toBe(true);
    expect(analysis.patterns[0]!.startsWith("eval ")).toBe(true);
  });
});
