// A tool of our own: counts the lines and words of a file in the workspace.
import { readFile } from "node:fs/promises";
import { isAbsolute, relative, resolve } from "node:path";
import { defineTool } from "@lathe/tools";
import { z } from "zod";

/** The file is outside the workspace the agent works in. */
export class OutsideWorkspaceError extends Error {
  override readonly name = "OutsideWorkspaceError";
  readonly path: string;
  constructor(path: string) {
    super(`${path} is outside the workspace.`);
    this.path = path;
  }
}

export const wordCountTool = defineTool({
  name: "word_count",
  description: "Counts the lines and words of a text file in the workspace.",
  parameters: z.object({ path: z.string().describe("The file, relative to the workspace") }),
  readOnly: true,
  async execute({ path }, ctx) {
    const absolute = resolve(ctx.cwd, path);
    const inside = relative(ctx.cwd, absolute);
    if (inside.startsWith("..") || isAbsolute(inside)) throw new OutsideWorkspaceError(path);
    const text = await readFile(absolute, "utf8");
    const lines = text === "" ? 0 : text.replace(/\n$/, "").split("\n").length;
    const words = text.split(/\s+/).filter(Boolean).length;
    return { title: inside, output: `${inside}: ${lines} lines, ${words} words`, metadata: { lines, words } };
  },
});
