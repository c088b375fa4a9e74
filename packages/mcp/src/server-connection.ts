import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport, StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  ErrorCode,
  McpError,
  type CallToolResult,
  type Progress,
  type ReadResourceResult,
  type Resource,
  type ResourceTemplate,
  type Tool as McpToolInfo,
} from "@modelcontextprotocol/sdk/types.js";
import { DEFAULT_CALL_TIMEOUT_MS, DEFAULT_CONNECT_TIMEOUT_MS, isStdio, type McpServerConfig } from "./config.js";
import { McpAbortedError, McpCallError, McpClosedError, McpConnectError, McpResourceError, McpTimeoutError } from "./errors.js";
import type { McpServerState, McpServerStatus } from "./server-status.js";
import { ProcessGroupStdioTransport } from "./stdio-transport.js";

export type { McpToolInfo };

/** One live MCP session: a client on a transport, and the tools the server listed. */
interface Live {
  client: Client;
  transport: Transport;
  tools: McpToolInfo[];
  /** The transport closed underneath us (the process exited, the stream ended). */
  lost: boolean;
  /** Calls in flight, each failed through its controller when the connection is lost. */
  calls: Set<AbortController>;
  /** A liveness check after a transport error is under way. */
  probing: boolean;
}

/** Timeouts for one server, after per-server overrides. */
export interface ServerTimeouts {
  timeoutMs?: number;
  connectTimeoutMs?: number;
}

/** How a call is made: its abort signal and where progress reports go. */
export interface CallOptions {
  signal?: AbortSignal;
  onProgress?: (progress: Progress) => void;
}

const CLIENT_INFO = { name: "lathe", version: "0.0.0" };
// How long a server that missed a call's deadline has to answer a ping before it counts as hung: at
// least a second (a busy machine must not make a healthy server look hung), at most five.
const PING_TIMEOUT_MS = { min: 1_000, max: 5_000 };
// How long closing an HTTP session may take before the transport is simply dropped.
const TERMINATE_TIMEOUT_MS = 1_000;
// How long an HTTP server whose stream just broke has to answer a ping before calls in flight fail.
// A killed server refuses the connection at once; this bounds a server that stopped answering.
const PROBE_TIMEOUT_MS = 800;

/**
 * One configured server: connects on demand, reconnects after its connection was lost, makes calls
 * with a timeout and an abort signal, and tells a lost connection (drop it, reconnect next time) from
 * a server that answered with an error (keep it). Never throws anything but this package's errors.
 */
export class ServerConnection {
  private live: Live | undefined;
  private connecting: Promise<Live> | undefined;
  private readonly disposals = new Set<Promise<void>>();
  private state: McpServerState = "idle";
  private error: string | undefined;
  private connects = 0;
  private shut = false;

  constructor(
    readonly name: string,
    private readonly config: McpServerConfig,
    private readonly defaults: ServerTimeouts,
  ) {}

  /** How long a call may wait for an answer. */
  get timeoutMs(): number {
    return this.config.timeoutMs ?? this.defaults.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
  }

  private get connectTimeoutMs(): number {
    return this.config.connectTimeoutMs ?? this.defaults.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  }

  /** The connection's state; `tools` is left for the tool source to fill in. */
  status(): Omit<McpServerStatus, "tools"> {
    const transport = this.live?.transport;
    const pid = transport instanceof ProcessGroupStdioTransport && !transport.exited ? transport.pid : undefined;
    return {
      state: this.state,
      transport: isStdio(this.config) ? "stdio" : "http",
      ...(this.error !== undefined ? { error: this.error } : {}),
      ...(pid !== undefined ? { pid } : {}),
      connects: this.connects,
    };
  }

  /** The server's tools, connecting first if there is no live connection. */
  async listTools(): Promise<McpToolInfo[]> {
    return (await this.connection()).tools;
  }

  /** Calls a tool. Throws {@link McpTimeoutError}, {@link McpCallError}, {@link McpAbortedError} and the like. */
  async callTool(tool: string, args: Record<string, unknown>, options: CallOptions = {}): Promise<CallToolResult> {
    const { signal } = options;
    if (signal?.aborted) throw new McpAbortedError(this.name, tool);
    const live = await this.connection(signal, tool);
    const broken = this.track(live);
    try {
      const result = await live.client.callTool({ name: tool, arguments: args }, undefined, {
        signal: signal ? AbortSignal.any([signal, broken.signal]) : broken.signal,
        timeout: this.timeoutMs,
        // The timeout measures silence: a long operation that reports progress is still alive.
        resetTimeoutOnProgress: true,
        ...(options.onProgress ? { onprogress: options.onProgress } : {}),
      });
      return result as CallToolResult;
    } catch (error) {
      if (broken.signal.aborted && !signal?.aborted && !this.shut) throw new McpCallError(this.name, tool, String(broken.signal.reason), true);
      throw await this.callFailure(live, tool, error, signal);
    } finally {
      live.calls.delete(broken);
    }
  }

  /** The server's resources, every page; none when the server does not offer resources. Throws {@link McpResourceError}. */
  async listResources(signal?: AbortSignal): Promise<Resource[]> {
    return this.resourceRequest("resources/list", signal, (client, options) =>
      client.getServerCapabilities()?.resources
        ? allPages(async (cursor) => {
            const page = await client.listResources(cursor === undefined ? {} : { cursor }, options);
            return { items: page.resources, next: page.nextCursor };
          })
        : Promise.resolve([]),
    );
  }

  /** The server's resource templates, every page; none when the server does not offer resources. */
  async listResourceTemplates(signal?: AbortSignal): Promise<ResourceTemplate[]> {
    return this.resourceRequest("resources/templates/list", signal, (client, options) =>
      client.getServerCapabilities()?.resources
        ? allPages(async (cursor) => {
            const page = await client.listResourceTemplates(cursor === undefined ? {} : { cursor }, options);
            return { items: page.resourceTemplates, next: page.nextCursor };
          })
        : Promise.resolve([]),
    );
  }

  /** Reads one resource. Throws {@link McpResourceError} (the server refused, the connection broke, no answer in time). */
  async readResource(uri: string, signal?: AbortSignal): Promise<ReadResourceResult> {
    return this.resourceRequest(uri, signal, async (client, options) => {
      if (!client.getServerCapabilities()?.resources) throw new McpResourceError(this.name, uri, "the server offers no resources", false);
      return client.readResource({ uri }, options);
    });
  }

  /** Closes the connection (a stdio server's processes included) and refuses further calls. */
  async close(): Promise<void> {
    this.shut = true;
    this.state = "closed";
    await this.connecting?.catch(() => {});
    const live = this.live;
    this.live = undefined;
    if (live) this.dispose(live, false);
    await Promise.all([...this.disposals]);
  }

  /** A controller aborted, with the reason, when `live` is found broken, so a request on it fails at once. */
  private track(live: Live): AbortController {
    const broken = new AbortController();
    live.calls.add(broken);
    return broken;
  }

  /** A resource request (`what`: the method or the URI) with the call timeout, failures as {@link McpResourceError}. */
  private async resourceRequest<T>(
    what: string,
    signal: AbortSignal | undefined,
    run: (client: Client, options: { signal: AbortSignal; timeout: number }) => Promise<T>,
  ): Promise<T> {
    if (signal?.aborted) throw new McpResourceError(this.name, what, "aborted", false);
    const live = await this.connection(signal, what).catch((error: unknown) => {
      if (error instanceof McpConnectError) throw new McpResourceError(this.name, what, error.reason, true);
      throw error;
    });
    const broken = this.track(live);
    try {
      return await run(live.client, { signal: signal ? AbortSignal.any([signal, broken.signal]) : broken.signal, timeout: this.timeoutMs });
    } catch (error) {
      if (error instanceof McpResourceError) throw error;
      if (this.shut) throw new McpClosedError(this.name);
      if (signal?.aborted) throw new McpResourceError(this.name, what, "aborted", false);
      if (broken.signal.aborted) throw new McpResourceError(this.name, what, String(broken.signal.reason), true);
      if (error instanceof McpError && error.code === ErrorCode.RequestTimeout && !live.lost) {
        const responsive = await this.ping(live);
        if (!responsive) this.lose(live, `the server stopped responding (a request for ${what} timed out and a ping failed)`, true);
        throw new McpResourceError(this.name, what, `no answer within ${this.timeoutMs} ms`, !responsive);
      }
      if (!live.lost && (isServerAnswer(error) || isMalformedAnswer(error))) throw new McpResourceError(this.name, what, describe(error), false);
      const reason = `${describe(error)}${this.stderrNote(live)}`;
      this.lose(live, reason, false);
      throw new McpResourceError(this.name, what, reason, true);
    } finally {
      live.calls.delete(broken);
    }
  }

  private async connection(signal?: AbortSignal, tool?: string): Promise<Live> {
    if (this.shut) throw new McpClosedError(this.name);
    if (this.live && !this.live.lost) return this.live;
    this.connecting ??= this.connect().finally(() => {
      this.connecting = undefined;
    });
    if (!signal) return this.connecting;
    // The attempt goes on for later calls; only this caller stops waiting.
    return new Promise<Live>((resolve, reject) => {
      const onAbort = () => reject(new McpAbortedError(this.name, tool ?? "(connect)"));
      if (signal.aborted) return onAbort();
      signal.addEventListener("abort", onAbort, { once: true });
      this.connecting!.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
    });
  }

  private async connect(): Promise<Live> {
    this.state = "connecting";
    const transport = this.transport();
    const client = new Client(CLIENT_INFO, { capabilities: {} });
    const live: Live = { client, transport, tools: [], lost: false, calls: new Set(), probing: false };
    client.onclose = () => {
      live.lost = true;
      if (this.live === live && !this.shut) this.lose(live, `the connection closed${this.stderrNote(live)}`, false);
    };
    // Over stdio, transport noise (a stray stdout line, EPIPE after a crash) surfaces through the
    // calls it breaks, and an exit closes the transport. Over HTTP a killed server only shows as an
    // error here (the response stream broke); the calls waiting on it would hear nothing until their
    // silence timeout, so the server is probed at once.
    client.onerror = (error) => {
      if (transport instanceof StreamableHTTPClientTransport && isBrokenStream(error)) void this.probe(live, error);
    };
    try {
      await client.connect(transport, { timeout: this.connectTimeoutMs });
      deliverResponsesAfterNotifications(transport);
      live.tools = await this.listAll(client);
    } catch (error) {
      const reason = `${describe(error)}${this.stderrNote(live)}`;
      this.dispose(live, true);
      if (this.shut) throw new McpClosedError(this.name);
      this.state = "failed";
      this.error = reason;
      throw new McpConnectError(this.name, reason);
    }
    if (this.shut) {
      this.dispose(live, false);
      throw new McpClosedError(this.name);
    }
    this.live = live;
    this.state = "connected";
    this.error = undefined;
    this.connects++;
    return live;
  }

  private transport(): Transport {
    const config = this.config;
    if (isStdio(config)) {
      return new ProcessGroupStdioTransport({
        command: config.command,
        ...(config.args ? { args: config.args } : {}),
        ...(config.env ? { env: config.env } : {}),
        ...(config.cwd ? { cwd: config.cwd } : {}),
      });
    }
    return new StreamableHTTPClientTransport(new URL(config.url), config.headers ? { requestInit: { headers: config.headers } } : undefined);
  }

  private async listAll(client: Client): Promise<McpToolInfo[]> {
    const tools = await allPages(async (cursor) => {
      const page = await client.listTools(cursor === undefined ? {} : { cursor }, { timeout: this.connectTimeoutMs });
      return { items: page.tools, next: page.nextCursor };
    });
    // Tools that must run as MCP tasks cannot be called with a plain tools/call.
    return tools.filter((tool) => tool.execution?.taskSupport !== "required");
  }

  /** Turns a failed call into this package's error, dropping the connection when it is broken. */
  private async callFailure(live: Live, tool: string, error: unknown, signal: AbortSignal | undefined): Promise<Error> {
    if (this.shut) return new McpClosedError(this.name);
    if (signal?.aborted) return new McpAbortedError(this.name, tool);
    if (error instanceof McpError && error.code === ErrorCode.RequestTimeout && !live.lost) {
      const responsive = await this.ping(live);
      if (!responsive) this.lose(live, `the server stopped responding (a call to "${tool}" timed out and a ping failed)`, true);
      return new McpTimeoutError(this.name, tool, this.timeoutMs, !responsive);
    }
    if (!live.lost && (isServerAnswer(error) || isMalformedAnswer(error))) {
      return new McpCallError(this.name, tool, describe(error), false);
    }
    const reason = `${describe(error)}${this.stderrNote(live)}`;
    this.lose(live, reason, false);
    return new McpCallError(this.name, tool, reason, true);
  }

  /** After a transport error: a server that no longer answers a ping is lost, failing the calls in flight. */
  private async probe(live: Live, error: unknown): Promise<void> {
    if (live.lost || live.probing || this.live !== live || this.shut) return;
    live.probing = true;
    try {
      await live.client.ping({ timeout: PROBE_TIMEOUT_MS });
    } catch {
      if (!live.lost && this.live === live) this.lose(live, `the connection to the server broke (${describe(error)}) and it does not answer`, false);
    } finally {
      live.probing = false;
    }
  }

  private async ping(live: Live): Promise<boolean> {
    try {
      await live.client.ping({ timeout: Math.min(PING_TIMEOUT_MS.max, Math.max(PING_TIMEOUT_MS.min, this.timeoutMs)) });
      return true;
    } catch {
      return false;
    }
  }

  /** Forgets a broken connection so the next call makes a new one; closes (or kills) the old one. */
  private lose(live: Live, reason: string, kill: boolean): void {
    live.lost = true;
    for (const call of live.calls) call.abort(reason);
    if (this.live === live) {
      this.live = undefined;
      if (!this.shut) {
        this.state = "disconnected";
        this.error = reason;
      }
    }
    this.dispose(live, kill);
  }

  private dispose(live: Live, kill: boolean): void {
    const done = closeLive(live, kill).finally(() => this.disposals.delete(done));
    this.disposals.add(done);
  }

  private stderrNote(live: Live): string {
    const transport = live.transport;
    if (!(transport instanceof ProcessGroupStdioTransport)) return "";
    const tail = transport.stderr.trim().split("\n").slice(-5).join("\n").trim();
    return tail ? ` (server stderr: ${tail})` : "";
  }
}

async function closeLive(live: Live, kill: boolean): Promise<void> {
  const transport = live.transport;
  try {
    if (transport instanceof ProcessGroupStdioTransport && kill) await transport.kill();
    if (transport instanceof StreamableHTTPClientTransport && !kill && !live.lost && transport.sessionId) {
      // Tell the server the session is over, without letting a slow server hold up closing.
      await Promise.race([transport.terminateSession().catch(() => {}), delay(TERMINATE_TIMEOUT_MS)]);
    }
    await live.client.close();
  } catch {
    // Closing is best effort; the process group is ended either way.
  }
}

/** Every item of a paginated listing, asking for pages until the server gives no next cursor. */
async function allPages<T>(page: (cursor: string | undefined) => Promise<{ items: T[]; next?: string | undefined }>): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  do {
    const got = await page(cursor);
    items.push(...got.items);
    cursor = got.next;
  } while (cursor);
  return items;
}

/**
 * The SDK handles a response as soon as it is read but a notification one microtask later, and
 * forgets a request's progress handler with its response: progress sent just before the result (in
 * the same chunk) would find no handler. Each response is handed on one microtask later, after the
 * notifications read before it.
 */
function deliverResponsesAfterNotifications(transport: Transport): void {
  const deliver = transport.onmessage;
  if (!deliver) return;
  transport.onmessage = (message, extra) => {
    if ("id" in message && ("result" in message || "error" in message)) queueMicrotask(() => deliver(message, extra));
    else deliver(message, extra);
  };
}

/** An HTTP transport error that means a stream or request broke (not a malformed message). */
function isBrokenStream(error: unknown): boolean {
  if (error instanceof StreamableHTTPError) return true;
  const message = error instanceof Error ? `${error.message} ${String((error as { cause?: unknown }).cause ?? "")}` : String(error);
  return /SSE stream disconnected|Failed to reconnect|Maximum reconnection attempts|Failed to open SSE stream|fetch failed|terminated|ECONNREFUSED|ECONNRESET|socket hang up|other side closed/i.test(message);
}

/** The server answered the request with a JSON-RPC error: the connection itself is fine. */
function isServerAnswer(error: unknown): boolean {
  return error instanceof McpError && error.code !== ErrorCode.ConnectionClosed && error.code !== ErrorCode.RequestTimeout;
}

/** The server's answer arrived but does not parse as a tool result. */
function isMalformedAnswer(error: unknown): boolean {
  return error instanceof Error && (error.name === "ZodError" || error.name === "$ZodError");
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
