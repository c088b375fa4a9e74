import path from "node:path";
import { gateNearMiss } from "../near-miss-gate.js";
import { commitPlan, generateDiff, parsePatch, PatchApplyError, planPatch, type FileChange } from "@lathe/patch";
import { z } from "zod";
import { afterWrite, type AfterWriteMetadata } from "../after-write.js";
import { ToolInputError } from "../errors.js";
import { recordCurrent, withFileLocks } from "../read-guard.js";
import { defineTool, type Tool } from "../tool.js";
import { realpathLoose } from "../workspace-path.js";
import { resolvePatch } from "./resolved-files.js";
import description from "./apply-patch.txt?raw";

const ApplyPatchParameters = z.object({
  patchText: z.string().describe("The full patch text, from *** Begin Patch to *** End Patch"),
});

/** One file of an `apply_patch` result. */
export interface PatchedFile {
  /** `A` added, `M` modified (or moved: `path` is then the destination), `D` deleted. */
  status: "A" | "M" | "D";
  /** Path relative to the workspace. */
  path: string;
  /** For a move: where the file was. */
  from?: string;
  diff: string;
  additions: number;
  removals: number;
}

/** Metadata of an `apply_patch` result. */
export interface ApplyPatchMetadata extends AfterWriteMetadata {
  files: PatchedFile[];
  /** All the files' diffs, one after another. */
  diff: string;
  additions: number;
  removals: number;
}

/** Creates the `apply_patch` tool. */
export function createApplyPatchTool(): Tool<typeof ApplyPatchParameters, ApplyPatchMetadata> {
  return defineTool({
    name: "apply_patch",
    description,
    parameters: ApplyPatchParameters,
    async execute(args, ctx) {
      if (!args.patchText.trim()) throw new ToolInputError("apply_patch", "patchText is empty.");
      const workspace = await realpathLoose(path.resolve(ctx.cwd));
      // Every path resolves as every tool's does: through symlinks, asking for any outside the workspace.
      const target = await resolvePatch(ctx, parsePatch(args.patchText), workspace);
      const planned = await planPatch(target.patch, target.files).catch((error: unknown) => {
        throw error instanceof PatchApplyError && error.path ? gateNearMiss(readable(error, target.display), ctx, target.display(error.path)) : readable(error, target.display);
      });
      if (planned.length === 0) throw new ToolInputError("apply_patch", "The patch changes no files.");
      const files = planned.map((change) => patchedFile(change, target.display));
      const diff = files.map((f) => f.diff).join("\n");
      const names = [...new Set(planned.flatMap((c) => (c.movePath ? [c.path, c.movePath] : [c.path])))];
      await ctx.ask({ permission: "edit", patterns: names.map(target.display), metadata: { diff, files: files.map(({ diff: _, ...f }) => f) } });

      const absolute = (name: string) => target.resolved.get(name)!.absolute;
      await withFileLocks(ctx, names.map(absolute), async () => {
        await target.recheck();
        await commitPlan(planned, target.files);
        for (const change of planned) {
          const written = change.movePath ?? change.path;
          if (change.newContent !== null) await recordCurrent(ctx, absolute(written), change.newContent);
          if (change.movePath) ctx.emit({ type: "file.edited", file: absolute(change.path) });
          ctx.emit({ type: "file.edited", file: absolute(written) });
        }
      });
      const additions = files.reduce((n, f) => n + f.additions, 0);
      const removals = files.reduce((n, f) => n + f.removals, 0);
      const lines = files.map((f) => `${f.status} ${f.path}${f.from ? ` (moved from ${f.from})` : ""}`);
      const written = planned.flatMap((c) => [
        ...(c.movePath ? [{ absolute: absolute(c.path), before: c.oldContent, after: null }] : []),
        { absolute: absolute(c.movePath ?? c.path), before: c.oldContent, after: c.newContent },
      ]);
      return afterWrite(ctx, written, {
        title: `${files.length} file${files.length === 1 ? "" : "s"}`,
        output: `Success. Updated the following files:\n${lines.join("\n")}`,
        metadata: { files, diff, additions, removals },
      }, { root: workspace });
    },
  });
}

// The diffs are made again with the names the model knows (the engine's name an outside file by a prefix).
function patchedFile(change: FileChange, display: (name: string) => string): PatchedFile {
  const status = change.type === "added" ? "A" : change.type === "deleted" ? "D" : "M";
  const from = display(change.path);
  const to = change.movePath ? display(change.movePath) : from;
  const { diff, additions, removals } = generateDiff(change.oldContent, change.newContent, from, change.movePath ? { newPath: to } : {});
  const file: PatchedFile = { status, path: to, diff, additions, removals };
  if (change.movePath) file.from = from;
  return file;
}

// The engine's errors name files by the engine's names; the model reads them by its own.
function readable(error: unknown, display: (name: string) => string): unknown {
  if (!(error instanceof PatchApplyError) || !error.path) return error;
  const name = error.path;
  error.message = error.message.split(name).join(display(name));
  return error;
}

/** The `apply_patch` tool. */
export const applyPatchTool = createApplyPatchTool();
