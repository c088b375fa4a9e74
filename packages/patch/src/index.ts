/**
 * `@lathe/patch`: Lathe's text engine. Unified diffs ({@link generateDiff}, {@link trimDiff}), the
 * fuzzy find/replace behind the `edit` tool ({@link replace}), and the `*** Begin Patch` format
 * ({@link parsePatch}, {@link planPatch}, {@link commitPlan}, {@link applyPatch}) with atomic
 * multi-file commits. Pure: no loop, no permissions.
 *
 * @packageDocumentation
 */
export { generateDiff, looksBinary, type FileDiff, type GenerateDiffOptions } from "./diff/generate-diff.js";
export { trimDiff } from "./diff/trim-diff.js";
export { diffToPatch } from "./diff/diff-to-patch.js";
export { replace, type ReplaceOptions, type ReplaceResult } from "./replace/replace.js";
export type { MatcherName } from "./replace/candidate.js";
export { parsePatch } from "./patch/parse.js";
export type { AddFileHunk, ChunkLine, DeleteFileHunk, ParsedPatch, PatchHunk, UpdateChunk, UpdateFileHunk } from "./patch/types.js";
export { planPatch } from "./patch/plan.js";
export { commitPlan } from "./patch/commit.js";
export { applyPatch } from "./patch/apply.js";
export type { FileChange } from "./patch/file-change.js";
export type { PatchTarget } from "./patch/target.js";
export type { EntryKind, PatchFileSystem } from "./patch/file-system.js";
export { DirectoryFileSystem } from "./patch/directory-file-system.js";
export { MemoryFileSystem } from "./patch/memory-file-system.js";
export {
  PatchApplyError,
  PatchParseError,
  PatchPathError,
  ReplaceError,
  type NearMiss,
  type PatchApplyErrorCode,
  type PatchApplyErrorData,
  type ReplaceErrorCode,
  type ReplaceErrorData,
} from "./errors.js";
