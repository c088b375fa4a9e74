import { stat } from "node:fs/promises";
import { isAbsolute } from "node:path";
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";
import { InvalidInputError, PromptDroppedError, SessionBusyError, SessionNotFoundError, type Agent, type AgentEvent, type AgentEventOf, type Run } from "@lathe/core";
import { mcpTools, type McpToolSource } from "@lathe/mcp";
import type { FileAccess, Tool } from "@lathe/tools";
import { editorFiles } from "./editor-files.js";
import { mcpServerConfigs, UnsupportedMcpServerError } from "./mcp-servers.js";
import { isMode, modeState } from "./modes.js";
import { permissionOptions, permissionReply, permissionToolCall } from "./permissions.js";
import { readPrompt, UnsupportedContentError } from "./prompt-content.js";
import { UpdateQueue } from "./update-queue.js";
import { historyUpdates, LiveUpdates } from "./updates.js";

/** What {@link serveAcp} knows of a session the editor opens, for the host to build its agent with. */
export interface AcpSessionSetup {
  /** The editor's project folder (absolute): the agent's workspace. */
  cwd: string;
  /**
   * The tools of the MCP servers the editor gave this session (`<server>_<tool>`), connected already;
   * put them beside your own (`tools: [...builtinTools(), ...setup.tools]`). `serveAcp` closes them.
   */
  tools: Tool[];
  /**
   * The editor's files, when it offers them (`fs/read_text_file`, `fs/write_text_file`): pass them as
   * `createAgent({ files })` so the agent reads unsaved buffers and the editor tracks its edits.
   */
  files?: FileAccess;
}

/**
 * Builds the agent for a session the editor opens. Give it no `approve` callback: approvals go to the
 * editor. Called once per folder and set of MCP servers; `serveAcp` closes the agents it made when
 * the editor disconnects.
 */
export type AcpAgentFactory = (setup: AcpSessionSetup) => Agent | Promise<Agent>;

/** Options of {@link serveAcp}. */
export interface ServeAcpOptions {
  /**
   * The agent to serve: an {@link AcpAgentFactory} (one agent per editor folder, with the editor's MCP
   * servers as tools — the usual choice), or one agent for one folder (sessions the editor opens
   * elsewhere are refused, and the editor's MCP servers are not used). Either way the agent must have
   * no `approve` callback: its approvals are asked in the editor.
   */
  agent: Agent | AcpAgentFactory;
  /** The editor's messages; default `process.stdin`. */
  input?: Readable | ReadableStream<Uint8Array>;
  /** Where the agent's messages go; default `process.stdout` (so log to stderr). */
  output?: Writable | WritableStream<Uint8Array>;
  /** The name and version the editor shows; default `lathe`. */
  agentInfo?: { name: string; version: string; title?: string };
  /** Time limits of the editor's MCP servers (see `@lathe/mcp`). */
  mcp?: { timeoutMs?: number; connectTimeoutMs?: number };
  /** Closes the connection. */
  signal?: AbortSignal;
}

interface ServedSession {
  id: string;
  cwd: string;
  agent: Agent;
  /** What the session is answering now, while any of the editor's prompts waits for its answer. */
  activity?: Activity;
}

/**
 * The prompts a session is answering: the one that started the turn and those the editor sent while
 * it ran (steered into it). Their runs all hear the session's events; each event becomes updates
 * once, through one converter, in order, whichever prompt's loop reaches it first.
 */
interface Activity {
  runs: Set<Run>;
  live: LiveUpdates;
  queue: UpdateQueue;
  forwarded: WeakSet<AgentEvent>;
  /** Aborted when the last prompt is answered or the editor cancels: ends the editor's open permission asks. */
  turn: AbortController;
  cancelled: boolean;
}

/**
 * Serves a Lathe agent to an editor over the Agent Client Protocol (`@agentclientprotocol/sdk`,
 * newline-delimited JSON-RPC on a pair of streams — stdin and stdout when an editor launches the
 * agent). Resolves when the editor closes the connection, after stopping the turns still running and
 * closing the MCP servers and agents it made.
 *
 * @example
 * ```ts
 * // One agent per folder the editor opens; `storage` shared, so sessions load after a restart.
 * await serveAcp({
 *   agent: ({ cwd, tools, files }) => createAgent({ model, cwd, storage, tools: [...builtinTools(), ...tools], files }),
 * });
 * ```
 */
export async function serveAcp(options: ServeAcpOptions): Promise<void> {
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  const stream = acp.ndJsonStream(
    output instanceof WritableStream ? output : (Writable.toWeb(output) as WritableStream<Uint8Array>),
    input instanceof ReadableStream ? input : (Readable.toWeb(input) as ReadableStream<Uint8Array>),
  );
  const server = new AcpServer(options);
  const connection = server.app().connect(stream);
  const stop = () => connection.close();
  options.signal?.addEventListener("abort", stop, { once: true });
  if (options.signal?.aborted) stop();
  try {
    await connection.closed.catch(() => {});
  } finally {
    options.signal?.removeEventListener("abort", stop);
    await server.close();
  }
}

class AcpServer {
  private readonly sessions = new Map<string, ServedSession>();
  /** Agents by folder (factory agents) — made once per folder and set of editor MCP servers. */
  private readonly made = new Map<string, Promise<Agent>>();
  private readonly sources: McpToolSource[] = [];
  private readonly listening = new Set<Agent>();
  private client: acp.AgentContext | undefined;
  private capabilities: acp.ClientCapabilities = {};

  constructor(private readonly options: ServeAcpOptions) {}

  app(): acp.AgentApp {
    return acp
      .agent({ name: "lathe" })
      .onConnect((connection) => {
        this.client = connection.client;
      })
      .onRequest("initialize", ({ params }) => this.initialize(params))
      .onRequest("authenticate", () => ({}))
      .onRequest("session/new", ({ params }) => guard(() => this.newSession(params)))
      .onRequest("session/load", ({ params }) => guard(() => this.loadSession(params)))
      .onRequest("session/prompt", ({ params }) => guard(() => this.prompt(params)))
      .onRequest("session/set_mode", ({ params }) => guard(() => this.setMode(params)))
      .onNotification("session/cancel", ({ params }) => this.cancel(params.sessionId));
  }

  private initialize(params: acp.InitializeRequest): acp.InitializeResponse {
    this.capabilities = params.clientCapabilities ?? {};
    const info = this.options.agentInfo ?? { name: "lathe", version: "0.0.0" };
    return {
      // The version the editor asked for when it is ours; else ours, and the editor decides.
      protocolVersion: params.protocolVersion === acp.PROTOCOL_VERSION ? params.protocolVersion : acp.PROTOCOL_VERSION,
      agentCapabilities: {
        loadSession: true,
        promptCapabilities: { image: true, audio: false, embeddedContext: true },
        mcpCapabilities: { http: true, sse: false },
      },
      authMethods: [],
      agentInfo: info,
    };
  }

  private async newSession(params: acp.NewSessionRequest): Promise<acp.NewSessionResponse> {
    const agent = await this.agentFor(params.cwd, params.mcpServers);
    const session = await agent.sessions.create({});
    this.serve({ id: session.id, cwd: params.cwd, agent });
    this.announceCommands(session.id, agent);
    return { sessionId: session.id, modes: modeState(session.mode) };
  }

  private async loadSession(params: acp.LoadSessionRequest): Promise<acp.LoadSessionResponse> {
    const agent = await this.agentFor(params.cwd, params.mcpServers);
    const session = await agent.sessions.get(params.sessionId);
    if (!session) throw acp.RequestError.sessionNotFound(params.sessionId);
    const served = this.serve({ id: session.id, cwd: params.cwd, agent });
    // The whole conversation first, then the answer: the editor shows the history as it arrives.
    const messages = await agent.sessions.messages(session.id);
    for (const update of historyUpdates(messages, served.cwd, session.todos)) await this.notify(session.id, update);
    this.announceCommands(session.id, agent);
    return { modes: modeState(session.mode) };
  }

  /**
   * Answers a prompt. One the editor sends while the session is answering another is steered into
   * the running turn (the next model request carries it) rather than refused, as users type while the
   * agent works; each prompt's response comes when the turn that answered it ends. A command that
   * needs a turn of its own (a subtask, one naming its own agent or model) is refused then.
   */
  private async prompt(params: acp.PromptRequest): Promise<acp.PromptResponse> {
    const session = this.session(params.sessionId);
    const commands = new Set((await session.agent.commands.list()).map((command) => command.name));
    const request = readPrompt(params.prompt, session.cwd, commands);
    const options = session.activity ? ({ whileBusy: "steer" } as const) : {};
    const run =
      request.kind === "command" ? session.agent.command(session.id, request.name, request.args, options) : session.agent.prompt(session.id, request.parts, options);
    const activity = (session.activity ??= {
      runs: new Set(),
      live: new LiveUpdates(session.id, session.cwd),
      queue: new UpdateQueue((update) => this.notify(session.id, update)),
      forwarded: new WeakSet(),
      turn: new AbortController(),
      cancelled: false,
    });
    activity.runs.add(run);
    try {
      for await (const event of run) {
        if (activity.forwarded.has(event)) continue;
        activity.forwarded.add(event);
        for (const update of activity.live.updates(event)) activity.queue.push(update);
      }
      const { info } = await run;
      // Every update reaches the editor before the answer that ends the turn.
      await activity.queue.drained().catch(() => {});
      return { stopReason: stopReason(info.finish, run.aborted || activity.cancelled, info.error) };
    } catch (error) {
      // A steered prompt cancelled before the turn read it: nothing answers it.
      if (error instanceof PromptDroppedError) return { stopReason: "cancelled" };
      throw error;
    } finally {
      activity.runs.delete(run);
      if (activity.runs.size === 0) {
        activity.turn.abort();
        if (session.activity === activity) session.activity = undefined;
      }
    }
  }

  private async setMode(params: acp.SetSessionModeRequest): Promise<acp.SetSessionModeResponse> {
    const session = this.session(params.sessionId);
    if (!isMode(params.modeId)) throw acp.RequestError.invalidParams({ modeId: params.modeId }, `Unknown mode "${params.modeId}".`);
    await session.agent.sessions.setMode(session.id, params.modeId);
    return {};
  }

  private cancel(sessionId: string): void {
    const activity = this.sessions.get(sessionId)?.activity;
    if (!activity) return;
    activity.cancelled = true;
    activity.turn.abort();
    // Steered prompts the turn has not read are dropped with it: nothing starts after a cancel.
    for (const run of activity.runs) run.abort("cancelled in the editor");
    this.sessions.get(sessionId)?.agent.abort(sessionId, "cancelled in the editor");
  }

  /** Stops what still runs and closes what this connection opened. */
  async close(): Promise<void> {
    const running = [...this.sessions.values()].flatMap((session) => [...(session.activity?.runs ?? [])]);
    for (const session of this.sessions.values()) session.activity?.turn.abort();
    for (const run of running) run.abort("the editor disconnected");
    await Promise.allSettled(running);
    const made = await Promise.allSettled(this.made.values());
    await Promise.allSettled(made.flatMap((result) => (result.status === "fulfilled" ? [result.value.close()] : [])));
    await Promise.allSettled(this.sources.map((source) => source.close()));
  }

  private serve(session: ServedSession): ServedSession {
    const existing = this.sessions.get(session.id);
    if (existing) return existing;
    this.sessions.set(session.id, session);
    this.listen(session.agent);
    return session;
  }

  private session(id: string): ServedSession {
    const session = this.sessions.get(id);
    if (!session) throw acp.RequestError.sessionNotFound(id);
    return session;
  }

  private async agentFor(cwd: string, servers: acp.McpServer[]): Promise<Agent> {
    if (typeof cwd !== "string" || !isAbsolute(cwd)) throw acp.RequestError.invalidParams({ cwd }, "cwd must be an absolute path.");
    const info = await stat(cwd).catch(() => undefined);
    if (!info?.isDirectory()) throw acp.RequestError.invalidParams({ cwd }, `cwd is not a directory: ${cwd}`);
    const source = this.options.agent;
    if (typeof source !== "function") {
      if (source.cwd !== cwd) throw acp.RequestError.invalidParams({ cwd }, `This agent works in ${source.cwd}, not ${cwd}.`);
      return source;
    }
    const key = JSON.stringify([cwd, servers]);
    let made = this.made.get(key);
    if (!made) {
      made = this.makeAgent(source, cwd, servers);
      this.made.set(key, made);
      made.catch(() => this.made.delete(key));
    }
    return made;
  }

  private async makeAgent(factory: AcpAgentFactory, cwd: string, servers: acp.McpServer[]): Promise<Agent> {
    let tools: Tool[] = [];
    if (servers.length > 0) {
      const source = mcpTools({ servers: mcpServerConfigs(servers, cwd), ...this.options.mcp });
      this.sources.push(source);
      tools = await source.tools();
    }
    let made: Agent | undefined;
    const files = editorFiles(
      () => this.client,
      this.capabilities.fs,
      async (sessionID) => (made ? (await this.owner(made, sessionID))?.id : undefined),
    );
    made = await factory({ cwd, tools, ...(files ? { files } : {}) });
    return made;
  }

  /** Asks the editor every approval of the sessions it opened (and of their subagents'). */
  private listen(agent: Agent): void {
    if (this.listening.has(agent)) return;
    this.listening.add(agent);
    agent.on("permission.asked", (event) => void this.ask(agent, event));
  }

  private async ask(agent: Agent, event: AgentEventOf<"permission.asked">): Promise<void> {
    const session = await this.owner(agent, event.sessionID);
    if (!session || !this.client) return;
    const request = event.request;
    let reply;
    try {
      const response = await this.client.request(
        "session/request_permission",
        { sessionId: session.id, toolCall: permissionToolCall(request, session.cwd), options: permissionOptions(request) },
        session.activity ? { cancellationSignal: session.activity.turn.signal } : undefined,
      );
      reply = permissionReply(response);
    } catch {
      // The editor failed to answer (it disconnected, or the turn ended): nobody approved it.
      reply = "reject" as const;
    }
    // Scoped like every client reply: only the session the editor was asked about, and its subagents.
    await agent.permissions.replyFor(session.id, request.id, reply).catch(() => {});
  }

  /** The served session a session belongs to: itself, or the session whose subagent it is. */
  private async owner(agent: Agent, sessionID: string): Promise<ServedSession | undefined> {
    for (let id: string | undefined = sessionID, depth = 0; id && depth < 64; depth++) {
      const served = this.sessions.get(id);
      if (served && served.agent === agent) return served;
      id = (await agent.sessions.get(id).catch(() => undefined))?.parentID;
    }
    return undefined;
  }

  private announceCommands(sessionId: string, agent: Agent): void {
    // After the response that tells the editor the session's id.
    setTimeout(() => {
      void agent.commands
        .list()
        .then((commands) =>
          this.notify(sessionId, {
            sessionUpdate: "available_commands_update",
            availableCommands: commands.map((command) => ({
              name: command.name,
              description: command.description ?? `Run /${command.name}`,
              input: { hint: "arguments" },
            })),
          }),
        )
        .catch(() => {});
    }, 0);
  }

  private async notify(sessionId: string, update: acp.SessionUpdate): Promise<void> {
    await this.client?.notify("session/update", { sessionId, update });
  }
}

/** ACP's stop reason for how a turn ended; a failed turn (not a rejected call) is an error the editor shows. */
function stopReason(finish: string | undefined, aborted: boolean, error: { name: string; message: string } | undefined): acp.StopReason {
  if (aborted || finish === "aborted") return "cancelled";
  // A rejection in the editor ends the turn as the user chose: not a failure to report.
  if (error && error.name !== "RejectedError") throw acp.RequestError.internalError({ name: error.name }, error.message);
  if (finish === "length") return "max_tokens";
  if (finish === "budget") return "max_turn_requests";
  if (finish === "content-filter") return "refusal";
  return "end_turn";
}

/** Lathe's typed errors as JSON-RPC errors: bad input is the editor's to fix, anything else internal. */
async function guard<T>(body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } catch (error) {
    if (error instanceof acp.RequestError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    if (error instanceof InvalidInputError || error instanceof UnsupportedContentError || error instanceof UnsupportedMcpServerError) {
      throw acp.RequestError.invalidParams(undefined, message);
    }
    if (error instanceof SessionBusyError) throw acp.RequestError.invalidRequest(undefined, message);
    if (error instanceof SessionNotFoundError) throw acp.RequestError.resourceNotFound(message);
    throw acp.RequestError.internalError(undefined, message);
  }
}
