import type { McpServer } from "@agentclientprotocol/sdk";
import type { McpServerConfig } from "@lathe/mcp";

/** An MCP server the editor offered that Lathe cannot reach (SSE: not announced, so not expected). */
export class UnsupportedMcpServerError extends Error {
  override readonly name = "UnsupportedMcpServerError";
}

/**
 * The editor's MCP servers as `@lathe/mcp` configuration, keyed by a name made safe for tool names
 * (`<server>_<tool>`). Stdio servers start in the session's folder with the environment the editor
 * gave them on top of Lathe's credential-free one; HTTP servers get the editor's headers.
 */
export function mcpServerConfigs(servers: McpServer[], cwd: string): Record<string, McpServerConfig> {
  const configs: Record<string, McpServerConfig> = {};
  for (const server of servers) {
    const name = uniqueName(configs, server.name);
    if ("type" in server && server.type === "sse") {
      throw new UnsupportedMcpServerError(`MCP server "${server.name}" uses SSE, which this agent does not support: use streamable HTTP or stdio.`);
    }
    if ("type" in server && server.type === "http") {
      configs[name] = { url: server.url, headers: Object.fromEntries(server.headers.map((header) => [header.name, header.value])) };
    } else {
      const stdio = server as Extract<McpServer, { command: string }>;
      configs[name] = {
        command: stdio.command,
        args: stdio.args,
        env: Object.fromEntries(stdio.env.map((variable) => [variable.name, variable.value])),
        cwd,
      };
    }
  }
  return configs;
}

function uniqueName(taken: Record<string, unknown>, wanted: string): string {
  const base = wanted.replace(/[^A-Za-z0-9_-]+/g, "_").replace(/^_+|_+$/g, "") || "mcp";
  let name = base;
  for (let n = 2; name in taken; n++) name = `${base}_${n}`;
  return name;
}
