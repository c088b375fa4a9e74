import { z } from "zod";
import { afterWrite } from "../after-write.js";
import { acceptArgumentAliases } from "../argument-aliases.js";
import { InvalidPathError } from "../errors.js";
import { editFile, fileWriteMetadata, type FileWriteMetadata } from "../file-edit.js";
import { defineTool, type Tool } from "../tool.js";
import { resolveToolPath } from "../workspace-path.js";
import description from "./write.txt?raw";

const WriteParameters = acceptArgumentAliases(z.object({
  path: z.string().describe("The file to write, absolute or relative to the working directory"),
  content: z.string().describe("The complete content of the file"),
}));

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
      const verb = result.before === undefined ? "Created" : result.before === args.content ? "No changes to" : "Wrote";
      return afterWrite(ctx, [{ absolute: target.absolute, ...result }], {
        title: target.relative,
        output: `${verb} ${target.relative} (${Buffer.byteLength(args.content)} bytes, +${result.additions} -${result.removals} lines).`,
        metadata: fileWriteMetadata(target, result),
      }, { others: true });
    },
  });
}

/** The `write` tool. */
export const writeTool = createWriteTool();
