import { generateDiff } from "@lathe/patch";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { writeFileAtomic } from "./atomic-write.js";
import type { Diagnostic, Diagnostics } from "./diagnostics.js";
import { errorBlock, errorsOf, newDiagnostics, OTHER_FILES_SHOWN, displayPath } from "./diagnostics-text.js";
import { recordCurrent, withFileLocks } from "./read-guard.js";
import { withheldDiagnosticsNote, withholdUnreadable } from "./diagnostics/readable.js";
import type { ToolContext, ToolResult } from "./tool.js";

/** A file a tool has just written (`after: null`: it deleted it). */
export interface WrittenFile {
  absolute: string;
  before: string | undefined | null;
  after: string | null;
}

/** What {@link afterWrite} adds to a tool's metadata. */
export interface AfterWriteMetadata extends Record<string, unknown> {
  /** Diagnostics of the written files (all severities) and new errors of other files, by absolute path. */
  diagnostics?: Record<string, Diagnostic[]>;
  /** Files the project's formatter changed, by absolute path, with the formatter's name. */
  formatted?: Record<string, string>;
}

interface FileDiff {
  diff: string;
  additions: number;
  removals: number;
}

/**
 * The one step every file-changing tool (`write`, `edit`, `multiedit`, `apply_patch`) takes after it
 * has written: when the agent has language servers ({@link ToolContext.diagnostics}), run the
 * project's formatter over the written files (the file on disk, the result's diff and the
 * read-before-write record then all hold the formatted content), sync the files to their servers,
 * and append the errors found to the result — in the written files, and (`others`, for `write`)
 * errors newly appearing in other files. Never fails the tool: a broken server becomes a note.
 * `root` is what the paths of a patch's `metadata.files` are relative to (default `ctx.cwd`).
 */
export async function afterWrite<M extends Record<string, unknown>>(
  ctx: ToolContext,
  files: WrittenFile[],
  result: ToolResult<M>,
  options: { others?: boolean; root?: string } = {},
): Promise<ToolResult<M & AfterWriteMetadata>> {
  const diagnostics = ctx.diagnostics;
  if (!diagnostics || files.length === 0) return result;
  const extra: AfterWriteMetadata = {};
  const notes: string[] = [];
  const formatted = await formatWritten(ctx, diagnostics, files, notes);
  if (formatted.size > 0) {
    extra.formatted = Object.fromEntries([...formatted].map(([file, f]) => [file, f.formatter]));
    patchDiffs(result.metadata, formatted, options.root ?? ctx.cwd);
    notes.push(`Formatted ${[...formatted.entries()].map(([file, f]) => `${displayPath(ctx.cwd, file)} (${f.formatter})`).join(", ")}; the file on disk is the formatted version.`);
  }
  const written = files.filter((f) => f.after !== null).map((f) => f.absolute);
  const sections: string[] = [];
  if (written.length > 0 && !ctx.abort.aborted) {
    try {
      // Deleted files go too, so that servers forget them (and their problems).
      const report = await diagnostics.sync(files.map((f) => f.absolute), { cwd: ctx.cwd, trusted: ctx.trusted === true, signal: ctx.abort, related: options.others === true });
      notes.push(...report.notes);
      const withheld = withheldDiagnosticsNote(await withholdUnreadable(ctx, report));
      if (withheld) notes.push(withheld);
      const found: Record<string, Diagnostic[]> = {};
      for (const file of written) {
        const own = report.files[file] ?? [];
        if (own.length > 0) found[file] = own;
        const errors = errorsOf(own);
        if (errors.length > 0) sections.push(errorBlock(ctx.cwd, file, errors));
      }
      if (options.others) sections.push(...otherErrors(ctx.cwd, written, report, found));
      if (Object.keys(found).length > 0) extra.diagnostics = found;
    } catch (error) {
      notes.push(`Diagnostics are unavailable: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  const text = [
    ...(sections.length > 0 ? ["", "Language server errors — fix them before moving on:", ...sections] : []),
    ...(notes.length > 0 ? ["", ...notes.map((n) => `Note: ${n}`)] : []),
  ];
  return {
    ...result,
    output: text.length > 0 ? `${result.output}\n${text.join("\n")}` : result.output,
    metadata: { ...(result.metadata as M), ...extra },
  };
}

// New errors in files the tool did not write, capped; also recorded into `found`.
function otherErrors(cwd: string, written: string[], report: { files: Record<string, Diagnostic[]>; before: Record<string, Diagnostic[]> }, found: Record<string, Diagnostic[]>): string[] {
  const blocks: string[] = [];
  let hidden = 0;
  for (const [file, all] of Object.entries(report.files)) {
    if (written.includes(file)) continue;
    const fresh = newDiagnostics(report.before[file], errorsOf(all));
    if (fresh.length === 0) continue;
    found[file] = fresh;
    if (blocks.length < OTHER_FILES_SHOWN) blocks.push(errorBlock(cwd, file, fresh));
    else hidden++;
  }
  if (blocks.length > 0) blocks.unshift("New errors in other files:");
  if (hidden > 0) blocks.push(`… and new errors in ${hidden} more file${hidden === 1 ? "" : "s"}`);
  return blocks;
}

async function formatWritten(ctx: ToolContext, diagnostics: Diagnostics, files: WrittenFile[], notes: string[]): Promise<Map<string, FileDiff & { formatter: string }>> {
  const done = new Map<string, FileDiff & { formatter: string }>();
  for (const file of files) {
    if (file.after === null || ctx.abort.aborted) continue;
    const result = await diagnostics.format(file.absolute, file.after, { cwd: ctx.cwd, trusted: ctx.trusted === true, signal: ctx.abort }).catch((error: unknown) => {
      notes.push(`The formatter failed on ${displayPath(ctx.cwd, file.absolute)}: ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    });
    if (!result || result.content === file.after) continue;
    const content = result.content;
    const wrote = await withFileLocks(ctx, [file.absolute], async () => {
      // Someone may have changed the file since the tool wrote it; their version wins.
      const now = await readFile(file.absolute, "utf8").catch(() => undefined);
      if (now !== file.after) return false;
      await writeFileAtomic(file.absolute, content);
      await recordCurrent(ctx, file.absolute, content);
      return true;
    });
    if (!wrote) continue;
    done.set(file.absolute, { ...generateDiff(file.before ?? null, content, displayPath(ctx.cwd, file.absolute)), formatter: result.formatter });
  }
  return done;
}

// The tools' metadata shapes: one file (`filepath`, `diff`, counts) or a patch (`files[]` and totals).
function patchDiffs(metadata: Record<string, unknown> | undefined, formatted: Map<string, FileDiff>, root: string): void {
  if (!metadata) return;
  if (typeof metadata.filepath === "string") {
    const f = formatted.get(metadata.filepath);
    if (f) Object.assign(metadata, { diff: f.diff, additions: f.additions, removals: f.removals });
    return;
  }
  const files = metadata.files as Array<FileDiff & { path: string }> | undefined;
  if (!Array.isArray(files)) return;
  for (const file of files) {
    const f = formatted.get(path.join(root, file.path));
    if (f) Object.assign(file, { diff: f.diff, additions: f.additions, removals: f.removals });
  }
  Object.assign(metadata, {
    diff: files.map((f) => f.diff).join("\n"),
    additions: files.reduce((n, f) => n + f.additions, 0),
    removals: files.reduce((n, f) => n + f.removals, 0),
  });
}
