import { AgentClosedError, FileUrlRefusedError, InvalidInputError, SessionBusyError } from "./errors.js";
import type { AgentEvent, AgentEventMap } from "./events.js";
import type { AgentOptions, PromptInput, PromptOptions } from "./options.js";
import type { AgentDefinition } from "./agents/registry.js";
import type { TurnRequest } from "./loop/prompt-loop.js";
import type { Run } from "./loop/run.js";
import type { AgentRuntime } from "./loop/runtime.js";
import type { Snapshots } from "./snapshot/index.js";
import { buildRuntime } from "./api/agent-runtime.js";
import { Listeners } from "./api/listeners.js";
import { parseCache, parseLimits, parseWhileBusy, validateOptions } from "./api/option-checks.js";
import { createPermissionsApi, type PermissionsApi } from "./api/permissions-api.js";
import { Runs } from "./api/runs.js";
import { createSessionsApi, type CreateSessionInput, type SessionsApi } from "./api/sessions-api.js";
import { offeredTools, type TaskHost } from "./api/subagents.js";
import { commandRequest, steeredCommandInput } from "./api/command-runner.js";
import { commandArguments } from "./agents/command-template.js";
import { commandsApi, skillsApi, type CommandsApi, type SkillsApi } from "./api/definitions-api.js";
import { parseMode } from "./agents/permission-mode.js";
import { SessionEventLog } from "./session/event-log.js";

// `Agent` composes small parts, each in api/: the runtime the loop shares (agent-runtime.ts), the
// runs of its sessions (runs.ts), its listeners (listeners.ts), the sessions and permissions APIs,
// and subagent tasks (subagents.ts). What is left here is the public surface and its checks.

export type { CreateSessionInput, SessionsApi, PermissionsApi, SkillsApi, CommandsApi };

/**
 * A coding agent bound to one model, workspace and storage. Made by {@link createAgent}.
 * Sessions run one prompt at a time each; different sessions run concurrently.
 */
export class Agent {
  /** Session management. */
  readonly sessions: SessionsApi;
  /** Approvals waiting for the host. */
  readonly permissions: PermissionsApi;
  /** The skills found for this agent's workspace and user, and the files skipped. */
  readonly skills: SkillsApi;
  /** The commands a host can invoke with {@link Agent.command}, and the files skipped. */
  readonly commands: CommandsApi;
  private readonly listeners = new Listeners();
  private readonly runs = new Runs();
  private readonly runtime: AgentRuntime;
  private readonly states: Map<string, Map<string, unknown>>;
  private readonly ownsStorage: boolean;
  private readonly snapshotEngine: Snapshots | undefined;
  /** Every session's events, numbered, for clients that rejoin (see `sessions.stream`). */
  private readonly eventLog: SessionEventLog;
  /** Per running session, the log number before its run's first event. */
  private readonly runStarts = new Map<string, number>();
  private closed = false;

  /** @internal Use {@link createAgent}. */
  constructor(options: AgentOptions) {
    if (!options || !options.model) throw new InvalidInputError("createAgent needs a model: any AI SDK language model.");
    if (options.maxSteps !== undefined && (!Number.isInteger(options.maxSteps) || options.maxSteps < 1)) {
      throw new InvalidInputError(`maxSteps must be a positive integer, got ${options.maxSteps}.`);
    }
    validateOptions(options);
    this.eventLog = new SessionEventLog(options.eventLog);
    const built = buildRuntime(options, {
      emit: (event) => this.emit(event),
      offeredTools: (agent, tools) => offeredTools(tasks, agent, tools),
      parentOf: (sessionID) => this.runs.parents.get(sessionID),
    });
    this.ownsStorage = options.storage === undefined;
    this.runtime = built.runtime;
    this.states = built.states;
    this.snapshotEngine = built.snapshotEngine;
    // Read lazily, when an agent's tools are first asked for: by then the runtime exists.
    const tasks: TaskHost = {
      runtime: this.runtime,
      parents: this.runs.parents,
      createSession: (input) => this.sessions.create(input),
      prompt: (sessionID, input, promptOptions) => this.prompt(sessionID, input, promptOptions),
    };
    this.sessions = createSessionsApi({
      runtime: this.runtime,
      assertOpen: () => this.assertOpen(),
      isBusy: (sessionID) => this.runs.has(sessionID),
      emit: (event) => this.emit(event),
      forgetState: (sessionID) => this.states.delete(sessionID),
      snapshots: () => this.requireSnapshots(),
      compact: (sessionID, compactOptions) => this.start(sessionID, { kind: "compact", options: {} }, compactOptions).then((result) => result),
      eventLog: this.eventLog,
      activeRun: (sessionID) => {
        const run = this.runs.get(sessionID);
        const after = this.runStarts.get(sessionID);
        return run && after !== undefined ? { after, settled: run.then(() => undefined, () => undefined) } : undefined;
      },
    });
    this.permissions = createPermissionsApi(this.runtime.permissions);
    this.skills = skillsApi(this.runtime.skills.catalog);
    this.commands = commandsApi(this.runtime.commands);
  }

  /**
   * Answers a prompt in a session. Returns at once with a {@link Run}: iterate it for events, await
   * it for the final assistant message, await `run.stored` to know its message is stored.
   *
   * When the session already runs a turn here, `options.whileBusy` (else the agent's, else
   * `"reject"`) decides: throw, steer the message into the running turn, or queue it for a turn of
   * its own; see {@link WhileBusy}.
   *
   * @example
   * ```ts
   * const first = agent.prompt(id, "Refactor the auth module");
   * const fix = agent.prompt(id, "No, keep the old token format", { whileBusy: "steer" });
   * await fix.stored; // stored: safe from a crash, answered by the running turn's next request
   * const then = agent.prompt(id, "Now update the docs", { whileBusy: "queue" }); // its own turn, next
   * ```
   *
   * @throws {@link SessionBusyError} synchronously when the session already runs a prompt here and
   * `whileBusy` is `"reject"`.
   */
  prompt<OUTPUT = undefined>(sessionID: string, input: PromptInput, options: PromptOptions<OUTPUT> = {}): Run<OUTPUT> {
    this.assertOpen();
    if (options.limits !== undefined) parseLimits(options.limits, "limits of the prompt");
    if (options.mode !== undefined) parseMode(options.mode, "The prompt's mode");
    if (options.cache !== undefined) parseCache(options.cache, "The prompt's cache");
    const whileBusy = parseWhileBusy(options.whileBusy ?? this.runtime.options.whileBusy ?? "reject", "whileBusy of the prompt");
    const busy = this.runs.has(sessionID);
    if (busy && whileBusy === "reject") throw new SessionBusyError(sessionID);
    if (typeof input === "string" ? input.trim() === "" : input.length === 0) {
      throw new InvalidInputError("The prompt is empty.");
    }
    if (options.agent !== undefined) this.runtime.agents.get(options.agent);
    if (typeof input !== "string" && this.runtime.options.fileUrls !== true) {
      const local = input.find((part) => part.type === "file" && typeof part.url === "string" && /^file:/i.test(part.url.trim()));
      if (local?.type === "file") throw new FileUrlRefusedError(local.url);
    }
    if (options.messageID !== undefined && !/^msg_[0-9A-Za-z]{1,64}$/.test(options.messageID)) {
      throw new InvalidInputError(`messageID must be a message id made by createId("message"), got ${JSON.stringify(options.messageID)}.`);
    }
    if (options.outputRepairs !== undefined && (!Number.isInteger(options.outputRepairs) || options.outputRepairs < 0)) {
      throw new InvalidInputError(`outputRepairs must be a non-negative integer, got ${options.outputRepairs}.`);
    }
    if (busy) {
      if (options.messageID !== undefined && whileBusy === "queue") {
        throw new InvalidInputError("messageID cannot be given to a prompt that is queued: its message gets its id when its turn comes, in order.");
      }
      if (whileBusy === "steer") assertSteerable(input, options);
      const run = whileBusy === "steer" ? this.runs.steer(this.runtime, sessionID, input, options, (event) => this.emit(event)) : this.runs.enqueue(this.runtime, sessionID, input, options, (event) => this.emit(event));
      return run as Run<OUTPUT>;
    }
    // The result's `output` is the schema's type: the loop stores only values the schema validated.
    return this.start(sessionID, { kind: "prompt", input, options: options as PromptOptions }, options) as Run<OUTPUT>;
  }

  /**
   * Continues a turn that a previous process left unfinished — it died mid-turn, or the turn waits
   * for approval. A prompt stored without an answer is answered; the step that was streaming is
   * requested again while finished steps are kept (never repeated); tool calls that were running get
   * an "interrupted" result and the model goes on; calls that wait for approval ask again and attach
   * to their stored requests (answer them with {@link Agent.permissions}, before or after calling
   * this). The answer is stored once, in the turn's own assistant message.
   * The run rejects with `NothingToResumeError` when the session's last turn is finished.
   *
   * @throws {@link SessionBusyError} synchronously when the session already runs a prompt here.
   */
  resume(sessionID: string, options: PromptOptions = {}): Run {
    this.assertOpen();
    if (this.runs.has(sessionID)) throw new SessionBusyError(sessionID);
    return this.start(sessionID, { kind: "resume", options }, options);
  }

  /**
   * Runs a command in a session: its template expanded with `args` (a string, split like a shell
   * would for `$1`…`$9`, or a list of words), its `` !`cmd` `` blocks run under the bash rules, its
   * `@file` references read; answered by the command's agent and model unless `options` name others,
   * or — for a `subtask` command — handed to a subagent in a child session. Returns at once with a
   * {@link Run}. The run rejects (storing nothing) for an unknown command (`InvalidInputError`) or a
   * shell block that was denied or rejected (the permission engine's error).
   *
   * When the session already runs a turn here, `options.whileBusy` (else the agent's, else
   * `"reject"`) decides, as for {@link Agent.prompt}: `"queue"` stores the invocation on the session
   * and expands it when its own turn comes; `"steer"` expands it now (its shell blocks asked under
   * the running turn's agent) and steers the text into the running turn — refused with an
   * `InvalidInputError` (the run rejects, nothing stored) for a `subtask` command or one naming its
   * own agent or model, which need a turn of their own.
   *
   * @throws {@link SessionBusyError} synchronously when the session already runs a prompt here and
   * `whileBusy` is `"reject"`.
   */
  command(sessionID: string, name: string, args?: string | string[], options: PromptOptions = {}): Run {
    this.assertOpen();
    if (options.limits !== undefined) parseLimits(options.limits, "limits of the prompt");
    if (options.mode !== undefined) parseMode(options.mode, "The prompt's mode");
    if (options.cache !== undefined) parseCache(options.cache, "The prompt's cache");
    const whileBusy = parseWhileBusy(options.whileBusy ?? this.runtime.options.whileBusy ?? "reject", "whileBusy of the command");
    if (!this.runs.has(sessionID)) return this.start(sessionID, (signal) => commandRequest(this.runtime, sessionID, name, args, options, signal), options);
    if (whileBusy === "reject") throw new SessionBusyError(sessionID);
    if (options.messageID !== undefined) {
      throw new InvalidInputError("messageID cannot be given to a command that is steered or queued: its message gets its id when it is stored in order.");
    }
    const emit = (event: AgentEvent) => this.emit(event);
    if (whileBusy === "steer") {
      assertSteerable("", options);
      return this.runs.steer(this.runtime, sessionID, (agent, signal) => steeredCommandInput(this.runtime, sessionID, name, args, agent, signal), options, emit);
    }
    const { text } = commandArguments(args);
    const typed = `/${name.replace(/^\//, "")}${text ? ` ${text}` : ""}`;
    return this.runs.enqueue(this.runtime, sessionID, typed, options, emit, { name, ...(args !== undefined ? { args } : {}) });
  }

  private start(sessionID: string, request: TurnRequest | ((signal: AbortSignal) => Promise<TurnRequest>), options: PromptOptions): Run {
    this.runStarts.set(sessionID, this.eventLog.last(sessionID));
    const run = this.runs.start(this.runtime, sessionID, request, options, (event) => this.emit(event));
    void run.then(
      () => this.runs.has(sessionID) || this.runStarts.delete(sessionID),
      () => this.runs.has(sessionID) || this.runStarts.delete(sessionID),
    );
    return run;
  }

  /**
   * Aborts the session's running turn, if any. Prompts queued behind it stay queued and run next;
   * to drop one of those, abort its own run. Returns whether a turn was running.
   */
  abort(sessionID: string, reason?: string): boolean {
    return this.runs.abort(sessionID, reason ?? "aborted");
  }

  /** The workspace directory this agent's sessions work in (`cwd` of {@link createAgent}, resolved). */
  get cwd(): string {
    return this.runtime.cwd;
  }

  /** Whether the session runs a prompt in this agent, or has prompts waiting for a turn here. */
  isBusy(sessionID: string): boolean {
    return this.runs.has(sessionID);
  }

  /** Listens to events of every session; `*` receives every event. */
  on<T extends keyof AgentEventMap>(type: T, listener: (...args: AgentEventMap[T]) => void): this {
    this.listeners.on(type, listener);
    return this;
  }

  /** Listens to the next event of a type only. */
  once<T extends keyof AgentEventMap>(type: T, listener: (...args: AgentEventMap[T]) => void): this {
    this.listeners.once(type, listener);
    return this;
  }

  /** Stops listening. */
  off<T extends keyof AgentEventMap>(type: T, listener: (...args: AgentEventMap[T]) => void): this {
    this.listeners.off(type, listener);
    return this;
  }

  /**
   * Aborts every running prompt, waits for them to finish, closes the `resources` it was given (MCP
   * tool sources…) and its language servers (`lsp`), and closes the storage if the agent made it (a storage the host passed in stays
   * open: the host owns it).
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.runs.abortAll("agent closed");
    this.eventLog.close();
    await this.runtime.titles.close();
    this.listeners.removeAll();
    await Promise.allSettled([this.runtime.options.lsp, ...(this.runtime.options.resources ?? [])].map(async (resource) => resource?.close()));
    if (this.ownsStorage) await this.runtime.storage.close();
  }

  /** The agents this instance knows, built-in and the host's (hidden internal agents left out). */
  agents(): AgentDefinition[] {
    return this.runtime.agents.list();
  }

  private emit(event: AgentEvent): void {
    // Logged under the session and every session above it, as runs hear them.
    for (let id: string | undefined = event.sessionID; id !== undefined; id = this.runs.parents.get(id)) this.eventLog.append(id, event);
    // A subagent's events reach its own run and the runs of every session above it.
    this.runs.deliver(event);
    // Listeners are guarded (see `Listeners`), so one that throws cannot stop the others or the loop.
    this.listeners.emit(event);
  }

  private requireSnapshots(): Snapshots {
    if (!this.snapshotEngine?.enabled) throw new InvalidInputError("Snapshots are turned off for this agent (snapshots: false).");
    return this.snapshotEngine;
  }

  private assertOpen(): void {
    if (this.closed) throw new AgentClosedError();
  }
}

/** Options a turn applies: a message steered into a running turn cannot bring them (that turn's stand). */
const TURN_OPTIONS = ["agent", "system", "maxSteps", "limits", "mode", "model", "cache", "output", "outputRepairs"] as const;

/** Refuses what a steered message cannot carry, rather than ignoring it. */
function assertSteerable(input: PromptInput, options: PromptOptions): void {
  const given = TURN_OPTIONS.filter((key) => options[key] !== undefined);
  if (given.length > 0) {
    throw new InvalidInputError(`A steered message joins the running turn, which keeps its own ${given.join(", ")}: queue the prompt (whileBusy: "queue") to give them.`);
  }
  if (typeof input !== "string" && input.some((part) => part.type === "subtask")) {
    throw new InvalidInputError('A subtask starts a turn of its own: queue it (whileBusy: "queue") instead of steering it.');
  }
}

/**
 * Creates an agent: a model, a workspace, storage and an approval callback give sessions that read,
 * edit and run code, stream typed events and survive restarts.
 *
 * @example
 * ```ts
 * const agent = createAgent({ model, cwd: "/path/to/repo", approve: async () => "once" });
 * const session = await agent.sessions.create({ title: "fix login" });
 * const run = agent.prompt(session.id, "Fix the failing test in src/auth.ts");
 * for await (const event of run) if (event.type === "message.part.updated" && event.delta) process.stdout.write(event.delta);
 * const { info, parts } = await run;
 * ```
 */
export function createAgent(options: AgentOptions): Agent {
  return new Agent(options);
}
