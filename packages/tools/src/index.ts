/**
 * `defineTool()`, the tool context, and Lathe's built-in coding tools: `read`, `write`, `edit`,
 * `multiedit`, `apply_patch`, `bash`, `glob`, `grep`, `list`, `todowrite`, `todoread`, `webfetch`,
 * `sourcegraph` (all at once, configured: {@link builtinTools}), the `diagnostics` tool offered
 * with language servers, and the helpers they share: workspace paths, output truncation, the
 * read-before-write guard, atomic writes, and {@link afterWrite} (formatting and diagnostics after a write).
 *
 * @module @lathe/tools
 */
export {
  defineTool,
  InvalidToolDefinitionError,
  type Tool,
  type ToolContext,
  type ToolResult,
  type ToolPermissionRequest,
  type ToolProgress,
  type ToolEvent,
  type PermissionCheck,
  type TodoStore,
} from "./tool.js";
export { builtinTools, type BuiltinToolsOptions } from "./builtin-tools.js";
export { acceptArgumentAliases } from "./argument-aliases.js";

// The tools, ready to use and as factories taking options.
export { readTool, createReadTool, type ReadToolOptions, type ReadMetadata } from "./read/read.js";
export { writeTool, createWriteTool } from "./write/write.js";
export { editTool, createEditTool, type EditMetadata } from "./edit/edit.js";
export { multieditTool, createMultiEditTool, type MultiEditMetadata } from "./multiedit/multiedit.js";
export { applyPatchTool, createApplyPatchTool, type ApplyPatchMetadata, type PatchedFile } from "./apply-patch/apply-patch.js";
export { bashTool, createBashTool, type BashToolOptions, type BashMetadata } from "./bash/bash.js";
export type { BashSandbox, BwrapSandbox } from "./bash/sandbox.js";
export { globTool, createGlobTool, type GlobToolOptions, type GlobMetadata } from "./glob/glob.js";
export { grepTool, createGrepTool, type GrepToolOptions, type GrepMetadata } from "./grep/grep.js";
export { listTool, createListTool, DEFAULT_LIST_IGNORE, type ListToolOptions, type ListMetadata } from "./list/list.js";
export { todoWriteTool, todoReadTool, createTodoWriteTool, createTodoReadTool, type TodoMetadata } from "./todo/todo.js";
export { webfetchTool, createWebFetchTool, type WebFetchToolOptions, type WebFetchMetadata } from "./webfetch/webfetch.js";
export { sourcegraphTool, createSourcegraphTool, SourcegraphError, type SourcegraphToolOptions, type SourcegraphMetadata } from "./sourcegraph/sourcegraph.js";
export { diagnosticsTool, createDiagnosticsTool, type DiagnosticsMetadata } from "./diagnostics/diagnostics.js";

// Language servers and formatters after writes (implemented by @lathe/lsp).
export { DiagnosticSchema, type Diagnostic, type Diagnostics, type DiagnosticsReport, type FormattedContent } from "./diagnostics.js";
export { afterWrite, type WrittenFile, type AfterWriteMetadata } from "./after-write.js";
export { diagnosticLine, errorBlock } from "./diagnostics-text.js";
export { normalizeUrl, nonPublicReason, type AllowedAddresses } from "./webfetch/url-policy.js";

// Errors the tools throw (the loop turns them into error results the model reads).
export {
  InvalidPathError,
  FileNotFoundError,
  BinaryFileError,
  FileNotReadError,
  FileModifiedError,
  ToolInputError,
  NotUtf8Error,
  SandboxUnavailableError,
  WebFetchError,
} from "./errors.js";

// Shared helpers, for hosts and for tools of other packages.
export {
  resolveToolPath,
  assertPathArgument,
  sessionDataDir,
  removeSessionData,
  permissionPath,
  isInside,
  realpathLoose,
  toPosix,
  type ResolvedPath,
  type ResolvePathOptions,
} from "./workspace-path.js";
export {
  truncateOutput,
  cutText,
  cutMiddle,
  type CutMiddle,
  truncationNote,
  DEFAULT_TRUNCATION,
  type TruncationLimits,
  type TruncationDirection,
  type TruncatedOutput,
  type CutText,
} from "./truncate.js";
export { readForWrite, recordFile, recordCurrent, fileRecord, hashContent, withFileLocks, currentContent, type FileRecord } from "./read-guard.js";
export type { FileAccess, FileAccessContext } from "./file-access.js";
export { editFile, fileWriteMetadata, type FileEditResult, type FileWriteMetadata } from "./file-edit.js";
export type { AppliedEdit } from "./edit/apply-edits.js";
export { writeFileAtomic } from "./atomic-write.js";
export { isBinaryFile, looksBinary, viewableMime } from "./binary-file.js";
export { locateRipgrep, RipgrepError, type RipgrepOption } from "./search/ripgrep.js";
export { childEnvironment, isCredentialName, CREDENTIAL_ENV_NAMES, type EnvPolicyOptions } from "./env-policy.js";
export { SymlinkLoopError, MAX_SYMLINK_HOPS } from "./path-resolution.js";
