import type { Tool } from "@lathe/tools";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { parseOptions, type McpToolsOptions } from "./config.js";
import { McpClosedError } from "./errors.js";
import { createMcpTool } from "./mcp-tool.js";
import { ServerConnection } from "./server-connection.js";
import type { McpServerStatus } from "./server-status.js";
import { mcpToolName } from "./tool-name.js";

/**
 * The tools of a set of MCP servers. Made by {@link mcpTools}. Servers start when {@link tools} is
 * first called; a server that cannot start is left out (see {@link status}) rather than failing the
 * rest. Close it when the agent closes.
 */
export class McpToolSource {
  private readonly servers: ServerConnection[];
  private readonly validators = new Map<string, AjvJsonSchemaValidator>();
  /** Lathe names by server and tool, kept so a name never changes while the source lives. */
  private readonly names = new Map<string, string>();
  private readonly listed = new Map<string, string[]>();
  private closing: Promise<void> | undefined;

  /** Use {@link mcpTools}. */
  constructor(options: McpToolsOptions) {
    const timeouts = {
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
      ...(options.connectTimeoutMs !== undefined ? { connectTimeoutMs: options.connectTimeoutMs } : {}),
    };
    this.servers = Object.entries(options.servers).map(([name, config]) => new ServerConnection(name, config, timeouts));
  }

  /**
   * Connects every server not yet connected (in parallel) and returns the tools of all servers that
   * are, named `<server>_<tool>` (see {@link mcpToolName}). Never rejects because of a server: one
   * that fails is left out and its error is in {@link status}; calling `tools()` again retries it.
   * The returned tools stay valid across reconnects. Rejects with {@link McpClosedError} after {@link close}.
   */
  async tools(): Promise<Tool[]> {
    if (this.closing) throw new McpClosedError();
    const lists = await Promise.all(this.servers.map((server) => server.listTools().catch(() => undefined)));
    const tools: Tool[] = [];
    const taken = new Set(this.names.values());
    this.servers.forEach((server, index) => {
      const list = lists[index];
      if (!list) return;
      const ajv = this.validator(server.name);
      const names: string[] = [];
      for (const info of list) {
        const key = `${server.name}\0${info.name}`;
        let name = this.names.get(key);
        if (name === undefined) {
          name = mcpToolName(server.name, info.name, taken);
          this.names.set(key, name);
          taken.add(name);
        }
        names.push(name);
        tools.push(createMcpTool(server, info, name, ajv));
      }
      this.listed.set(server.name, names);
    });
    return tools;
  }

  /** Each server's connection state, by server name. */
  status(): Record<string, McpServerStatus> {
    const result: Record<string, McpServerStatus> = {};
    for (const server of this.servers) result[server.name] = { ...server.status(), tools: this.listed.get(server.name) ?? [] };
    return result;
  }

  /**
   * Closes every connection: stdio servers get their stdin closed, then SIGTERM, then SIGKILL, to
   * their whole process group; HTTP sessions are terminated. Calls in flight fail with
   * {@link McpClosedError}. Safe to call more than once.
   */
  close(): Promise<void> {
    this.closing ??= Promise.all(this.servers.map((server) => server.close())).then(() => {});
    return this.closing;
  }

  private validator(server: string): AjvJsonSchemaValidator {
    let ajv = this.validators.get(server);
    if (!ajv) this.validators.set(server, (ajv = new AjvJsonSchemaValidator()));
    return ajv;
  }
}

/**
 * Makes the tools of MCP servers available to an agent. Checks the options at once (throwing
 * {@link McpConfigError}); servers start on the first {@link McpToolSource.tools} call.
 *
 * @example
 * ```ts
 * const mcp = mcpTools({
 *   servers: {
 *     github: { command: "npx", args: ["-y", "@modelcontextprotocol/server-github"], env: { GITHUB_TOKEN } },
 *     docs: { url: "https://example.com/mcp", headers: { Authorization: `Bearer ${token}` } },
 *   },
 * });
 * const agent = createAgent({ model, tools: [...builtinTools(), ...(await mcp.tools())], permission: { "github_*": "ask" } });
 * // …
 * await agent.close();
 * await mcp.close();
 * ```
 */
export function mcpTools(options: McpToolsOptions): McpToolSource {
  return new McpToolSource(parseOptions(options));
}
