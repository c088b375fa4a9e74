/** Thrown by {@link mcpTools} for options that cannot work (a server with neither `command` nor `url`, a bad URL). */
export class McpConfigError extends Error {
  override readonly name = "McpConfigError";
  constructor(
    /** The server whose configuration is wrong, when one is to blame. */
    readonly server: string | undefined,
    readonly reason: string,
  ) {
    super(server === undefined ? `Invalid MCP options: ${reason}` : `Invalid MCP server "${server}": ${reason}`);
  }
}

/** A server could not be started or did not complete the MCP handshake and tool listing. */
export class McpConnectError extends Error {
  override readonly name = "McpConnectError";
  constructor(
    readonly server: string,
    readonly reason: string,
  ) {
    super(`Could not connect to MCP server "${server}": ${reason}`);
  }
}

/** The server ran the tool and reported a failure (`isError: true`); the message is the server's text. */
export class McpToolError extends Error {
  override readonly name = "McpToolError";
  constructor(
    readonly server: string,
    readonly tool: string,
    readonly detail: string,
  ) {
    super(detail || `MCP tool "${tool}" of server "${server}" reported an error without a message.`);
  }
}

/** The tool's input does not match the JSON schema the server published for it. */
export class McpInputError extends Error {
  override readonly name = "McpInputError";
  constructor(
    readonly server: string,
    readonly tool: string,
    readonly detail: string,
  ) {
    super(`Invalid input for MCP tool "${tool}" of server "${server}": ${detail}`);
  }
}

/**
 * A call failed for a reason other than the tool itself: the server refused the request, or the
 * connection broke (the process crashed, the HTTP endpoint went away). When `reconnect` is true the
 * connection was dropped and the next call starts a fresh one.
 */
export class McpCallError extends Error {
  override readonly name = "McpCallError";
  constructor(
    readonly server: string,
    readonly tool: string,
    readonly reason: string,
    readonly reconnect: boolean,
  ) {
    super(
      `MCP tool "${tool}" of server "${server}" failed: ${reason}` +
        (reconnect ? ` The connection was lost; the server is restarted on the next call.` : ""),
    );
  }
}

/**
 * The server did not answer a call in time. `unresponsive` tells whether it also failed a ping
 * afterwards: then the connection was dropped (a stdio server's processes killed) and the next call
 * starts a fresh one; otherwise only this call was cancelled.
 */
export class McpTimeoutError extends Error {
  override readonly name = "McpTimeoutError";
  constructor(
    readonly server: string,
    readonly tool: string,
    readonly timeoutMs: number,
    readonly unresponsive: boolean,
  ) {
    super(
      `MCP tool "${tool}" of server "${server}" timed out: no answer within ${timeoutMs} ms.` +
        (unresponsive
          ? ` The server does not respond at all; it is restarted on the next call.`
          : ` The call was cancelled; the server itself still responds.`),
    );
  }
}

/** The call was stopped by its abort signal; the server was told to cancel it. */
export class McpAbortedError extends Error {
  override readonly name = "McpAbortedError";
  constructor(
    readonly server: string,
    readonly tool: string,
  ) {
    super(`MCP tool "${tool}" of server "${server}" was aborted.`);
  }
}

/**
 * Listing or reading a server's resources failed: the server refused (an unknown URI, an error in its
 * handler), did not answer within the call timeout, or the connection broke. When `reconnect` is true
 * the connection was dropped and the next request starts a fresh one.
 */
export class McpResourceError extends Error {
  override readonly name = "McpResourceError";
  constructor(
    readonly server: string,
    /** The resource's URI, or the request (`resources/list`, `resources/templates/list`). */
    readonly resource: string,
    readonly reason: string,
    readonly reconnect: boolean,
  ) {
    super(`MCP server "${server}" could not give ${resource}: ${reason}` + (reconnect ? " The connection was lost; it is made again on the next request." : ""));
  }
}

/** The tool source was closed; its tools can no longer be called. */
export class McpClosedError extends Error {
  override readonly name = "McpClosedError";
  constructor(
    /** The server a call was for; absent when the whole source was asked for its tools. */
    readonly server?: string,
  ) {
    super(server === undefined ? "The MCP tool source is closed." : `MCP server "${server}" is closed: its tool source was closed.`);
  }
}
