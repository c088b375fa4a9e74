/**
 * `defineTool()`, the tool context, and Lathe's built-in coding tools.
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
  type TodoStore,
} from "./tool.js";
export {
  InvalidPathError,
  FileNotFoundError,
  BinaryFileError,
  FileNotReadError,
  FileModifiedError,
  ToolInputError,
  SandboxUnavailableError,
  WebFetchError,
} from "./errors.js";
export {
  resolveToolPath,
  assertPathArgument,
  sessionDataDir,
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
  truncationNote,
  DEFAULT_TRUNCATION,
  type TruncationLimits,
  type TruncationDirection,
  type TruncatedOutput,
  type CutText,
} from "./truncate.js";
export { readForWrite, recordFile, recordCurrent, fileRecord, hashContent, withFileLocks, type FileRecord } from "./read-guard.js";
export { writeFileAtomic } from "./atomic-write.js";
export { isBinaryFile, looksBinary, viewableMime } from "./binary-file.js";
export { locateRipgrep, RipgrepError, type RipgrepOption } from "./search/ripgrep.js";
export { readTool, createReadTool, type ReadToolOptions, type ReadMetadata } from "./read/read.js";
export { globTool, createGlobTool, type GlobToolOptions, type GlobMetadata } from "./glob/glob.js";
export { grepTool, createGrepTool, type GrepToolOptions, type GrepMetadata } from "./grep/grep.js";
