import path from "node:path";
import { commitPlan, parsePatch, planPatch, type FileChange, type ParsedPatch } from "@lathe/patch";
import { z } from "zod";
import { afterWrite, type AfterWriteMetadata } from "../after-write.js";
import { ToolInputError } from "../errors.js";
import { recordCurrent, withFileLocks } from "../read-guard.js";
import { defineTool, type Tool } from "../tool.js";
import { isInside, realpathLoose, toPosix } from "../workspace-path.js";
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
      const root = await realpathLoose(path.resolve(ctx.cwd));
      const parsed = relativize(parsePatch(args.patchText), [root, path.resolve(ctx.cwd)]);
      const planned = await planPatch(parsed, root);
      if (planned.length === 0) throw new ToolInputError("apply_patch", "The patch changes no files.");
      const files = planned.map(patchedFile);
      const diff = files.map((f) => f.diff).join("\n");
      const touched = [...new Set(planned.flatMap((c) => (c.movePath ? [c.path, c.movePath] : [c.path])))];
      await ctx.ask({ permission: "edit", patterns: touched, metadata: { diff, files: files.map(({ diff: _, ...f }) => f) } });

      const absolute = (p: string) => path.join(root, p);
      await withFileLocks(ctx, touched.map(absolute), async () => {
        await commitPlan(planned, root);
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
      }, { root });
    },
  });
}

function patchedFile(change: FileChange): PatchedFile {
  const status = change.type === "added" ? "A" : change.type === "deleted" ? "D" : "M";
  const file: PatchedFile = { status, path: change.movePath ?? change.path, diff: change.diff, additions: change.additions, removals: change.removals };
  if (change.movePath) file.from = change.path;
  return file;
}

// Models often write absolute paths; those inside the workspace are made relative (the patch engine
// refuses any absolute path, and so any path outside the workspace).
function relativize(patch: ParsedPatch, roots: string[]): ParsedPatch {
  const fix = (p: string) => {
    const root = path.isAbsolute(p) ? roots.find((r) => isInside(r, p)) : undefined;
    return root ? toPosix(path.relative(root, p)) : p;
  };
  return {
    hunks: patch.hunks.map((hunk) =>
      hunk.type === "update" && hunk.movePath !== undefined ? { ...hunk, path: fix(hunk.path), movePath: fix(hunk.movePath) } : { ...hunk, path: fix(hunk.path) },
    ),
  };
}

/** The `apply_patch` tool. */
export const applyPatchTool = createApplyPatchTool();
