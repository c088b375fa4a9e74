import { z } from "zod";

/** Where a server's connection stands. */
export const McpServerState = z.enum([
  /** Not started yet: servers start on the first {@link McpToolSource.tools} call. */
  "idle",
  /** Starting, handshaking or listing tools. */
  "connecting",
  "connected",
  /** The connection was lost (crash, hang, network); the next call reconnects. */
  "disconnected",
  /** The last attempt to connect failed; the next call or `tools()` tries again. */
  "failed",
  /** The tool source was closed. */
  "closed",
]);
/** Where a server's connection stands. */
export type McpServerState = z.infer<typeof McpServerState>;

/** A server's connection as {@link McpToolSource.status} reports it. */
export const McpServerStatus = z.object({
  state: McpServerState,
  transport: z.enum(["stdio", "http"]),
  /** The Lathe names of the server's tools, as of the last {@link McpToolSource.tools} call. */
  tools: z.array(z.string()),
  /** Why the connection was lost or could not be made. */
  error: z.string().optional(),
  /** The process id of a running stdio server (also the id of its process group). */
  pid: z.number().int().optional(),
  /** How many times a connection was made: 1 after the first, more after reconnects. */
  connects: z.number().int(),
});
/** A server's connection as {@link McpToolSource.status} reports it. */
export type McpServerStatus = z.infer<typeof McpServerStatus>;
