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
} from "./tool.js";
