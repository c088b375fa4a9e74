import { z } from "zod";
import { afterWrite } from "../after-write.js";
import { acceptArgumentAliases } from "../argument-aliases.js";
import { FileNotFoundError, ToolInputError } from "../errors.js";
import { editFile, fileWriteMetadata, type FileWriteMetadata } from "../file-edit.js";
import { similarNames } from "../similar-names.js";
import { gateNearMiss } from "../near-miss-gate.js";
import { defineTool, type Tool } from "../tool.js";
import { permissionPath, resolveToolPath } from "../workspace-path.js";
import { applyEdits, type AppliedEdit } from "./apply-edits.js";
import description from "./edit.txt?raw";

const EditParameters = acceptArgumentAliases(z.object({
  path: z.string().describe("The file to change, absolute or relative to the working directory"),
  oldString: z.string().describe("The exact text to replace (empty to create a new file)"),
  newString: z.string().describe("The text to put in its place (must differ from oldString)"),
  replaceAll: z.boolean().optional().describe("Replace every occurrence of oldString (default false)"),
}));

/** Metadata of an `edit` result. */
export interface EditMetadata extends FileWriteMetadata {
  /** The matcher of `@lathe/patch` `replace` that found the text (`created` for a new file). */
  matcher: string;
  /** 1-based lines where replacements start. */
  lines: number[];
}

/** Creates the `edit` tool. */
export function createEditTool(): Tool<typeof EditParameters, EditMetadata> {
  return defineTool({
    name: "edit",
    description,
    parameters: EditParameters,
    async execute(args, ctx) {
      if (args.oldString === args.newString) {
        throw new ToolInputError("edit", "oldString and newString are identical: there is nothing to change.");
      }
      const target = await resolveToolPath(ctx, args.path);
      let edit: AppliedEdit = { matcher: "created", lines: [1] };
      const result = await editFile(ctx, target, (before) => {
        const { content, applied } = applyEdits("edit", target.absolute, before, [args]);
        edit = applied[0]!;
        return content;
      }).catch(async (error: unknown) => {
        if (error instanceof FileNotFoundError) throw new FileNotFoundError(error.path, await similarNames(error.path));
        throw gateNearMiss(error, ctx, permissionPath(target));
      });
      const { matcher, lines } = edit;
      const output = matcher === "created"
        ? `Created ${target.relative} (${result.additions} lines).`
        : `Edited ${target.relative}: replaced ${lines.length === 1 ? "1 occurrence" : `${lines.length} occurrences`} at line${lines.length === 1 ? "" : "s"} ${lines.join(", ")} (matcher: ${matcher}; +${result.additions} -${result.removals} lines).${edit.lineNumbersStripped ? " The line-number prefixes copied from read were left out; give oldString without them." : ""}`;
      return afterWrite(ctx, [{ absolute: target.absolute, ...result }], { title: target.relative, output, metadata: { ...fileWriteMetadata(target, result), matcher, lines } });
    },
  });
}

/** The `edit` tool. */
export const editTool = createEditTool();
