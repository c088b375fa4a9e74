import { replace } from "@lathe/patch";
import { z } from "zod";
import { FileNotFoundError, ToolInputError } from "../errors.js";
import { editFile } from "../file-edit.js";
import { defineTool, type Tool } from "../tool.js";
import { resolveToolPath } from "../workspace-path.js";
import type { FileWriteMetadata } from "../write/write.js";
import description from "./multiedit.txt?raw";

const MultiEditParameters = z.object({
  path: z.string().describe("The file to change, absolute or relative to the working directory"),
  edits: z
    .array(
      z.object({
        oldString: z.string().describe("The exact text to replace (empty only in a first edit that creates the file)"),
        newString: z.string().describe("The text to put in its place"),
        replaceAll: z.boolean().optional().describe("Replace every occurrence (default false)"),
      }),
    )
    .min(1)
    .describe("The replacements, applied in order"),
});

/** Metadata of a `multiedit` result. */
export interface MultiEditMetadata extends FileWriteMetadata {
  /** Per edit: the matcher that found its text and the lines it replaced at. */
  edits: Array<{ matcher: string; lines: number[] }>;
}

/** Creates the `multiedit` tool. */
export function createMultiEditTool(): Tool<typeof MultiEditParameters, MultiEditMetadata> {
  return defineTool({
    name: "multiedit",
    description,
    parameters: MultiEditParameters,
    async execute(args, ctx) {
      const target = await resolveToolPath(ctx, args.path);
      const applied: Array<{ matcher: string; lines: number[] }> = [];
      const result = await editFile(ctx, target, (before) => {
        let content = before;
        args.edits.forEach((edit, i) => {
          const which = `Edit ${i + 1} of ${args.edits.length}`;
          if (edit.oldString === "") {
            if (i > 0 || content) throw new ToolInputError("multiedit", `${which}: an empty oldString only creates a new file, as the first edit.`);
            content = edit.newString;
            applied.push({ matcher: "created", lines: [1] });
            return;
          }
          if (content === undefined) throw new FileNotFoundError(target.absolute);
          try {
            const replaced = replace(content, edit.oldString, edit.newString, { replaceAll: edit.replaceAll ?? false });
            content = replaced.content;
            applied.push({ matcher: replaced.matcher, lines: replaced.lines });
          } catch (error) {
            // The message names the failing edit; the error keeps its class and data.
            if (error instanceof Error) error.message = `${which} failed, nothing was written: ${error.message}`;
            throw error;
          }
        });
        return content!;
      });
      const summary = applied.map((a, i) => `${i + 1}. ${a.matcher === "created" ? "created the file" : `line${a.lines.length === 1 ? "" : "s"} ${a.lines.join(", ")} (matcher: ${a.matcher})`}`);
      return {
        title: target.relative,
        output: `Applied ${applied.length} edit${applied.length === 1 ? "" : "s"} to ${target.relative} (+${result.additions} -${result.removals} lines):\n${summary.join("\n")}`,
        metadata: {
          filepath: target.absolute,
          diff: result.diff,
          additions: result.additions,
          removals: result.removals,
          existed: result.before !== undefined,
          edits: applied,
        },
      };
    },
  });
}

/** The `multiedit` tool. */
export const multieditTool = createMultiEditTool();
