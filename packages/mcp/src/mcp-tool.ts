import { defineTool, truncateOutput, type Tool } from "@lathe/tools";
import type { ContentBlock } from "@modelcontextprotocol/sdk/types.js";
import type { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { McpInputError, McpToolError } from "./errors.js";
import { compileInputSchema, mcpParameters } from "./input-schema.js";
import type { McpToolInfo, ServerConnection } from "./server-connection.js";
import { convertResult, errorResultText } from "./tool-result.js";

/** Metadata of an MCP tool's result. */
export interface McpToolMetadata extends Record<string, unknown> {
  /** The server's name, as configured. */
  server: string;
  /** The tool's name on the server. */
  tool: string;
  /** The server's structured result, when it sent one. */
  structuredContent?: Record<string, unknown>;
  /** Whether the output was cut to the output limits (the full text is kept in the session's data directory). */
  truncated: boolean;
  /**
   * Content the server annotated for the user only (`audience: ["user"]`), as it sent it: kept out of
   * the model's input, here for the host's UI. Absent when there was none.
   */
  userContent?: ContentBlock[];
  /** Every progress notification the server sent during the call, in order (absent when it sent none). */
  progress?: McpProgress[];
}

/** One progress notification of a call. */
export interface McpProgress {
  progress: number;
  total?: number;
  message?: string;
}

/**
 * Wraps one tool of a server as a Lathe tool named `name`. A call checks the input against the
 * server's schema, asks permission `name` (pattern `*`, so rules like `{ "github_*": "deny" }` apply),
 * calls the server, and turns the result into output and attachments; an `isError` result throws
 * {@link McpToolError}, which the model reads as the call's error.
 */
export function createMcpTool(
  connection: ServerConnection,
  info: McpToolInfo,
  name: string,
  ajv: AjvJsonSchemaValidator,
): Tool<ReturnType<typeof mcpParameters>, McpToolMetadata> {
  const schema = info.inputSchema as Record<string, unknown>;
  const validate = compileInputSchema(schema, ajv);
  const server = connection.name;
  return defineTool({
    name,
    description: info.description?.trim() || info.title || info.annotations?.title || `Tool "${info.name}" of the MCP server "${server}".`,
    parameters: mcpParameters(schema, validate),
    // Only a hint from the server; all it changes is that such calls of one step may run in parallel.
    ...(info.annotations?.readOnlyHint === true ? { readOnly: true } : {}),
    async execute(input, ctx) {
      const args = input ?? {};
      const problem = validate(args);
      if (problem !== undefined) throw new McpInputError(server, info.name, problem);
      await ctx.ask({ permission: name, patterns: ["*"], metadata: { server, tool: info.name, input: args } });
      const reports: McpProgress[] = [];
      const result = await connection.callTool(info.name, args, {
        signal: ctx.abort,
        onProgress: (progress) => {
          reports.push({ progress: progress.progress, ...(progress.total !== undefined ? { total: progress.total } : {}), ...(progress.message ? { message: progress.message } : {}) });
          ctx.metadata({
            ...(progress.message ? { title: progress.message } : {}),
            metadata: { progress: progress.progress, ...(progress.total !== undefined ? { total: progress.total } : {}) },
          });
        },
      });
      if (result.isError) throw new McpToolError(server, info.name, errorResultText(result));
      const converted = convertResult(result);
      const cut = await truncateOutput(converted.output, ctx);
      return {
        title: info.title ?? info.annotations?.title ?? info.name,
        output: cut.output,
        metadata: {
          server,
          tool: info.name,
          truncated: cut.truncated,
          ...(reports.length ? { progress: reports } : {}),
          ...(converted.userContent.length ? { userContent: converted.userContent } : {}),
          ...(result.structuredContent ? { structuredContent: result.structuredContent } : {}),
        },
        ...(converted.attachments.length ? { attachments: converted.attachments } : {}),
      };
    },
  });
}
