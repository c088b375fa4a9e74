import type { Tool } from "@lathe/tools";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { parseOptions, type McpToolsOptions } from "./config.js";
import { McpClosedError, McpConfigError } from "./errors.js";
import { createMcpTool } from "./mcp-tool.js";
import { audienceOf, toRead, toResource, toTemplate, type McpResource, type McpResourceRead, type McpResourceTemplate } from "./resources.js";
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
  /** Each server's last resource and template listings: they decide the audience of a read. */
  private readonly resourcesSeen = new Map<string, McpResource[]>();
  private readonly templatesSeen = new Map<string, McpResourceTemplate[]>();
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

  /**
   * The resources of one server (`server` given: its failure rejects, with {@link McpResourceError}),
   * or of every server (a server that cannot be reached or refuses is left out). Each says whether
   * it may go into the model's input (`forModel`: false for `audience: ["user"]`). Servers that offer
   * no resources list none.
   */
  async listResources(server?: string, options: { signal?: AbortSignal } = {}): Promise<McpResource[]> {
    return this.fromServers(server, async (connection) => {
      const resources = (await connection.listResources(options.signal)).map((resource) => toResource(connection.name, resource));
      this.resourcesSeen.set(connection.name, resources);
      return resources;
    });
  }

  /** The resource templates of one server, or of every server; as {@link listResources}. */
  async listResourceTemplates(server?: string, options: { signal?: AbortSignal } = {}): Promise<McpResourceTemplate[]> {
    return this.fromServers(server, async (connection) => {
      const templates = (await connection.listResourceTemplates(options.signal)).map((template) => toTemplate(connection.name, template));
      this.templatesSeen.set(connection.name, templates);
      return templates;
    });
  }

  /**
   * Reads a resource of `server`. The result has every item for the host (`contents`) and, apart,
   * what may go into the model's input (`modelInput`: empty when the server's listing marks the
   * resource, or the template its URI matches, `audience: ["user"]`). The server's listings are
   * fetched first when they were not yet. Rejects with {@link McpResourceError}.
   */
  async readResource(server: string, uri: string, options: { signal?: AbortSignal } = {}): Promise<McpResourceRead> {
    if (this.closing) throw new McpClosedError(server);
    const connection = this.server(server);
    if (!this.resourcesSeen.has(server)) await this.listResources(server, options);
    if (!this.templatesSeen.has(server)) await this.listResourceTemplates(server, options);
    const result = await connection.readResource(uri, options.signal);
    return toRead(server, uri, result, audienceOf(uri, this.resourcesSeen.get(server) ?? [], this.templatesSeen.get(server) ?? []));
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

  private server(name: string): ServerConnection {
    const found = this.servers.find((server) => server.name === name);
    if (!found) throw new McpConfigError(name, "no server of that name is configured");
    return found;
  }

  /** `run` on the named server (failures reject), or on every server (failures leave it out), results in server order. */
  private async fromServers<T>(name: string | undefined, run: (connection: ServerConnection) => Promise<T[]>): Promise<T[]> {
    if (this.closing) throw new McpClosedError(name);
    if (name !== undefined) return run(this.server(name));
    const lists = await Promise.all(this.servers.map((connection) => run(connection).catch(() => [] as T[])));
    return lists.flat();
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
