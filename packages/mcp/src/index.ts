/**
 * MCP servers as tool sources for Lathe: {@link mcpTools} connects to servers over stdio or streamable
 * HTTP and turns their tools into Lathe tools named `<server>_<tool>`, with permission asks per tool,
 * results as output and attachments, timeouts, aborts and reconnects after a crash or a hang; hosts
 * list and read the servers' resources ({@link McpToolSource.listResources},
 * {@link McpToolSource.readResource}), and content annotated for the user only stays out of the
 * model's input.
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
export type { McpResource, McpResourceTemplate, McpResourceContent, McpResourceRead } from "./resources.js";
export { isForModel, type McpAudience } from "./audience.js";
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
  McpResourceError,
} from "./errors.js";
