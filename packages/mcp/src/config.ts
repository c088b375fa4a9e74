import { z } from "zod";
import { McpConfigError } from "./errors.js";

const timeout = z.number().int().positive();

/** A server Lathe starts as a child process and speaks to over stdin/stdout. */
export const McpStdioServerConfig = z.object({
  /** The program to run, e.g. `node` or `npx`. Looked up on `PATH`. */
  command: z.string().min(1),
  /** Its arguments. */
  args: z.array(z.string()).optional(),
  /**
   * Extra environment variables. The child gets these on top of the host's environment without
   * credentials (the policy shell commands follow: `*_API_KEY`, `*_TOKEN`, `*_SECRET*`,
   * `*PASSWORD*`, `AWS_*`… are left out; see `CREDENTIAL_ENV_NAMES` in `@lathe/tools`): pass the
   * keys a server needs here.
   */
  env: z.record(z.string(), z.string()).optional(),
  /** Working directory of the child; default the host's. */
  cwd: z.string().optional(),
  /** Overrides {@link McpToolsOptions}' `timeoutMs` for this server. */
  timeoutMs: timeout.optional(),
  /** Overrides {@link McpToolsOptions}' `connectTimeoutMs` for this server. */
  connectTimeoutMs: timeout.optional(),
});
/** A server Lathe starts as a child process and speaks to over stdin/stdout. */
export type McpStdioServerConfig = z.infer<typeof McpStdioServerConfig>;

/** A server reached over MCP's streamable HTTP transport. */
export const McpHttpServerConfig = z.object({
  /** The MCP endpoint, e.g. `https://example.com/mcp`. */
  url: z.string().url(),
  /** Headers sent with every request (e.g. `Authorization`). */
  headers: z.record(z.string(), z.string()).optional(),
  /** Overrides {@link McpToolsOptions}' `timeoutMs` for this server. */
  timeoutMs: timeout.optional(),
  /** Overrides {@link McpToolsOptions}' `connectTimeoutMs` for this server. */
  connectTimeoutMs: timeout.optional(),
});
/** A server reached over MCP's streamable HTTP transport. */
export type McpHttpServerConfig = z.infer<typeof McpHttpServerConfig>;

/** One MCP server: a command to run (stdio) or a URL (streamable HTTP). */
export const McpServerConfig = z.union([McpStdioServerConfig.strict(), McpHttpServerConfig.strict()]);
/** One MCP server: a command to run (stdio) or a URL (streamable HTTP). */
export type McpServerConfig = z.infer<typeof McpServerConfig>;

/** Options of {@link mcpTools}. */
export const McpToolsOptions = z.object({
  /**
   * The servers by name. The name prefixes the server's tools (`<name>_<tool>`), so permission rules
   * such as `{ "github_*": "deny" }` address one server's tools.
   */
  servers: z.record(z.string().min(1), McpServerConfig),
  /**
   * How long a tool call may wait for the server's answer (or its next progress report) before it
   * fails with {@link McpTimeoutError}. Default 60,000 ms.
   */
  timeoutMs: timeout.optional(),
  /** How long starting a server, the MCP handshake and listing its tools may take. Default 30,000 ms. */
  connectTimeoutMs: timeout.optional(),
});
/** Options of {@link mcpTools}. */
export type McpToolsOptions = z.infer<typeof McpToolsOptions>;

/** Default of {@link McpToolsOptions}' `timeoutMs`. */
export const DEFAULT_CALL_TIMEOUT_MS = 60_000;
/** Default of {@link McpToolsOptions}' `connectTimeoutMs`. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;

/** Checks the options, naming the server and the field at fault. */
export function parseOptions(options: unknown): McpToolsOptions {
  const parsed = McpToolsOptions.safeParse(options);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const path = issue?.path ?? [];
  if (path[0] !== "servers" || typeof path[1] !== "string") throw new McpConfigError(undefined, describe(issue));
  const server = path[1];
  const raw = (options as { servers: Record<string, unknown> }).servers[server];
  // A union failure says little; the branch the config was meant for says which field is wrong.
  const meant = raw && typeof raw === "object" ? ("command" in raw ? McpStdioServerConfig : "url" in raw ? McpHttpServerConfig : undefined) : undefined;
  const detail = meant?.strict().safeParse(raw);
  if (!meant || !detail || detail.success) {
    throw new McpConfigError(server, "give either { command, args?, env?, cwd? } or { url, headers? }");
  }
  throw new McpConfigError(server, describe(detail.error.issues[0]));
}

function describe(issue: z.core.$ZodIssue | undefined): string {
  if (!issue) return "invalid";
  const where = issue.path.filter((key) => typeof key !== "symbol").join(".");
  return `${where ? `${where}: ` : ""}${issue.message}`;
}

/** Whether a server config starts a child process. */
export function isStdio(config: McpServerConfig): config is McpStdioServerConfig {
  return "command" in config;
}
