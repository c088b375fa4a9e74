/**
 * MCP servers as tool sources for Lathe: {@link mcpTools} connects to servers over stdio or streamable
 * HTTP and turns their tools into Lathe tools named `<server>_<tool>`, with permission asks per tool,
 * results as output and attachments, timeouts, aborts and reconnects after a crash or a hang.
 *
 * @module @lathe/mcp
 */
export { mcpTools, McpToolSource } from "./mcp-tool-source.js";
export {
  McpToolsOptions,
  McpServerConfig,
  McpStdioServerConfig,
  McpHttpServerConfig,
  DEFAULT_CALL_TIMEOUT_MS,
  DEFAULT_CONNECT_TIMEOUT_MS,
} from "./config.js";
export { McpServerStatus, McpServerState } from "./server-status.js";
export type { McpToolMetadata, McpProgress } from "./mcp-tool.js";
export { mcpToolName, MAX_TOOL_NAME } from "./tool-name.js";
export {
  McpConfigError,
  McpConnectError,
  McpToolError,
  McpInputError,
  McpCallError,
  McpTimeoutError,
  McpAbortedError,
  McpClosedError,
} from "./errors.js";
