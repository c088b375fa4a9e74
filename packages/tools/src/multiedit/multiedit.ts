import { z } from "zod";
import { afterWrite } from "../after-write.js";
import { acceptArgumentAliases } from "../argument-aliases.js";
import { applyEdits, type AppliedEdit } from "../edit/apply-edits.js";
import { gateNearMiss } from "../near-miss-gate.js";
import { editFile, fileWriteMetadata, type FileWriteMetadata } from "../file-edit.js";
import { defineTool, type Tool } from "../tool.js";
import { permissionPath, resolveToolPath } from "../workspace-path.js";
import description from "./multiedit.txt?raw";

const MultiEditParameters = acceptArgumentAliases(z.object({
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
}));

/** Metadata of a `multiedit` result. */
export interface MultiEditMetadata extends FileWriteMetadata {
  /** Per edit: the matcher that found its text and the lines it replaced at. */
  edits: AppliedEdit[];
}

/** Creates the `multiedit` tool. */
export function createMultiEditTool(): Tool<typeof MultiEditParameters, MultiEditMetadata> {
  return defineTool({
    name: "multiedit",
    description,
    parameters: MultiEditParameters,
    async execute(args, ctx) {
      const target = await resolveToolPath(ctx, args.path);
      let edits: AppliedEdit[] = [];
      const result = await editFile(ctx, target, (before) => {
        const { content, applied } = applyEdits("multiedit", target.absolute, before, args.edits);
        edits = applied;
        return content;
      }).catch((error: unknown) => {
        throw gateNearMiss(error, ctx, permissionPath(target));
      });
      const summary = edits.map((a, i) => `${i + 1}. ${a.matcher === "created" ? "created the file" : `line${a.lines.length === 1 ? "" : "s"} ${a.lines.join(", ")} (matcher: ${a.matcher})`}`);
      return afterWrite(ctx, [{ absolute: target.absolute, ...result }], {
        title: target.relative,
        output: `Applied ${edits.length} edit${edits.length === 1 ? "" : "s"} to ${target.relative} (+${result.additions} -${result.removals} lines):\n${summary.join("\n")}`,
        metadata: { ...fileWriteMetadata(target, result), edits },
      });
    },
  });
}

/** The `multiedit` tool. */
export const multieditTool = createMultiEditTool();
