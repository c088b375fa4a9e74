import { z } from "zod";
import { InvalidPathError } from "../errors.js";
import { editFile } from "../file-edit.js";
import { defineTool, type Tool } from "../tool.js";
import { resolveToolPath } from "../workspace-path.js";
import description from "./write.txt?raw";

const WriteParameters = z.object({
  path: z.string().describe("The file to write, absolute or relative to the working directory"),
  content: z.string().describe("The complete content of the file"),
});

/** Metadata of the file-writing tools (`write`, `edit`, `multiedit`). */
export interface FileWriteMetadata extends Record<string, unknown> {
  /** Absolute path of the file written. */
  filepath: string;
  /** Unified diff of the change ("" when nothing changed). */
  diff: string;
  additions: number;
  removals: number;
  /** True when the file existed before. */
  existed: boolean;
}

/** Creates the `write` tool. */
export function createWriteTool(): Tool<typeof WriteParameters, FileWriteMetadata> {
  return defineTool({
    name: "write",
    description,
    parameters: WriteParameters,
    async execute(args, ctx) {
      const target = await resolveToolPath(ctx, args.path);
      if (args.path.endsWith("/")) throw new InvalidPathError(args.path, "it names a folder, not a file");
      const result = await editFile(ctx, target, () => args.content);
      const existed = result.before !== undefined;
      const verb = !existed ? "Created" : result.before === args.content ? "No changes to" : "Wrote";
      return {
        title: target.relative,
        output: `${verb} ${target.relative} (${Buffer.byteLength(args.content)} bytes, +${result.additions} -${result.removals} lines).`,
        metadata: { filepath: target.absolute, diff: result.diff, additions: result.additions, removals: result.removals, existed },
      };
    },
  });
}

/** The `write` tool. */
export const writeTool = createWriteTool();
