import { EventEmitter } from "eventemitter3";
import { addTokens, createId, emptyTokens, subtractTokens, type Session } from "@lathe/message";
import { MemoryStorage, type SessionQuery, type SessionPage, type Storage } from "@lathe/storage";
import { builtinTools, type Tool } from "@lathe/tools";
import { rm } from "node:fs/promises";
import { homedir, hostname } from "node:os";
import { join } from "node:path";
import { AgentClosedError, InvalidInputError, SessionBusyError, SessionNotFoundError, type BudgetExceededError } from "./errors.js";
import type { AgentEvent, AgentEventMap } from "./events.js";
import { forkHistory } from "./fork.js";
import { modelRef } from "./model-info.js";
import type { AgentOptions, PromptInput, PromptOptions } from "./options.js";
import { Limits } from "@lathe/message";
import { ModelFacts, ModelPrice, resolveModelFacts } from "./model-facts.js";
import { defaultTitle, SessionTitles } from "./session-title.js";
import { disabled, evaluate, type PermissionRequest, type Reply } from "@lathe/permission";
import { AgentRegistry, type AgentDefinition } from "./agents.js";
import { afterRevert, earliestTrees, patchesAfter, StepSnapshots } from "./file-history.js";
import { Snapshots, type SnapshotFileDiff } from "./snapshot/index.js";
import { createTaskTool, type SubagentRunner } from "./task-tool.js";
import { AgentPermissions } from "./agent-permissions.js";
import { runTurn, sessionDataDir, type TurnRequest } from "./prompt-loop.js";
import { SessionUpdater } from "./session-updater.js";
import type { SessionWriter } from "./session-writer.js";
import { Run, type RunResult } from "./run.js";
import type { AgentRuntime } from "./runtime.js";

/** Fields a host may set when creating a session. */
export interface CreateSessionInput {
  title?: string;
  /** The parent session (for subagent sessions and forks). */
  parentID?: string;
  /** `task` for a subagent's session (removed with its parent), `fork` for a copy. */
  kind?: "task" | "fork";
  /** Free-form data kept with the session. */
  metadata?: Record<string, unknown>;
  /** This session's budgets, over the agent's `limits`; see {@link Limits}. */
  limits?: Limits;
}

/** Session management of an {@link Agent}. */
export interface SessionsApi {
  /** Creates and stores a new session in the agent's workspace. */
  create(input?: CreateSessionInput): Promise<Session>;
  /** A session, or undefined. */
  get(sessionID: string): Promise<Session | undefined>;
  /** Sessions in creation order, a page at a time. */
  list(query?: SessionQuery): Promise<SessionPage>;
  /** Removes a session and everything it owns. A busy session cannot be removed ({@link SessionBusyError}). */
  remove(sessionID: string): Promise<void>;
  /** Messages of a session with their parts. */
  messages(sessionID: string): ReturnType<Storage["listMessages"]>;
  /**
   * Undoes the file changes made from a point of the session on: every file changed at or after
   * `messageID` (and `partID` within it, if given) returns to its state there — created files are
   * removed, deleted ones restored — whatever changed them, tools or shell commands. The session
   * records the revert; the next prompt drops the reverted messages for good, and `unrevert` undoes
   * the revert until then. A busy session cannot be reverted ({@link SessionBusyError}).
   */
  revert(sessionID: string, point: { messageID: string; partID?: string }): Promise<Session>;
  /** Undoes the session's last revert: files return to their state just before it. */
  unrevert(sessionID: string): Promise<Session>;
  /**
   * What the session changed in the workspace, per file (before and after text, added and removed
   * lines), from `messageID` on (the whole session when absent) up to the workspace now.
   */
  diff(sessionID: string, options?: { messageID?: string }): Promise<SnapshotFileDiff[]>;
  /**
   * Starts a new session from a copy of this one's history: every message up to and including
   * `messageID` (the whole history when absent), with new ids; the new session's `parentID` is the
   * source. The source must not be running a prompt ({@link SessionBusyError}).
   */
  fork(sessionID: string, options?: { messageID?: string }): Promise<Session>;
  /**
   * Summarises the session now, as an overflow would: the `compaction` agent writes a summary, the
   * most recent turns stay verbatim, and from then on the model sees the summary instead of the
   * older history (storage keeps it all). Resolves with the summary message — `info.error` says
   * when it failed, and then nothing changed. Emits `session.compacted`. Like a prompt, it makes a
   * pending revert final and ends a turn left waiting for approval as interrupted; the summary's
   * request counts toward the session's budgets.
   *
   * @throws {@link SessionBusyError} when the session runs a prompt; `InvalidInputError` when there
   * is nothing to compact (no answer since the start or the last summary);
   * {@link BudgetExceededError} when a limit of the session or the agent is already reached. In
   * these cases nothing is written.
   */
  compact(sessionID: string, options?: { signal?: AbortSignal }): Promise<RunResult>;
}

/** Approvals that wait for the host: list them, answer them — from another request, minutes later, or after a restart. */
export interface PermissionsApi {
  /**
   * Requests waiting for an answer, oldest first. With a session id, that session's stored requests
   * are loaded first, so requests made before a restart are listed and can be answered.
   */
  pending(sessionID?: string): Promise<PermissionRequest[]>;
  /**
   * Answers a request: `once`, `always` (for the rest of the session, also settling other waiting
   * requests it covers), `reject` (the turn stops), or `{ reject: feedback }` (the model reads the
   * feedback and goes on). Throws the permission engine's `NotFoundError` for an unknown id.
   */
  reply(requestID: string, reply: Reply): Promise<void>;
}

/**
 * A coding agent bound to one model, workspace and storage. Made by {@link createAgent}.
 * Sessions run one prompt at a time each; different sessions run concurrently.
 */
export class Agent {
  /** Session management. */
  readonly sessions: SessionsApi;
  /** Approvals waiting for the host. */
  readonly permissions: PermissionsApi;
  private readonly emitter = new EventEmitter<AgentEventMap>();
  private readonly runtime: AgentRuntime;
  private readonly runs = new Map<string, { run: Run; controller: AbortController }>();
  private readonly states = new Map<string, Map<string, unknown>>();
  private readonly warnedListeners = new WeakSet<object>();
  /** The guarded wrapper of each listener, per event type, so `off` finds it. */
  private readonly wrappers = new WeakMap<object, Map<keyof AgentEventMap, (...args: unknown[]) => void>>();
  /** Child session → parent session, while a subagent task runs. */
  private readonly parents = new Map<string, string>();
  private readonly ownsStorage: boolean;
  private readonly snapshotEngine: Snapshots | undefined;
  private closed = false;

  /** @internal Use {@link createAgent}. */
  constructor(options: AgentOptions) {
    if (!options || !options.model) throw new InvalidInputError("createAgent needs a model: any AI SDK language model.");
    if (options.maxSteps !== undefined && (!Number.isInteger(options.maxSteps) || options.maxSteps < 1)) {
      throw new InvalidInputError(`maxSteps must be a positive integer, got ${options.maxSteps}.`);
    }
    validateOptions(options);
    const tools = new Map<string, Tool>();
    for (const tool of options.tools ?? builtinTools()) {
      if (tools.has(tool.name)) throw new InvalidInputError(`Two tools are named "${tool.name}".`);
      tools.set(tool.name, tool);
    }
    this.ownsStorage = options.storage === undefined;
    const storage = options.storage ?? new MemoryStorage();
    const emit = (event: AgentEvent) => this.emit(event);
    const factsCache = new Map<string, ModelFacts>();
    const updater = new SessionUpdater(storage, emit);
    const writers = new Map<string, SessionWriter>();
    const agents = new AgentRegistry(options.agents);
    const permissions = new AgentPermissions({
      approve: options.approve,
      global: options.permission,
      agentLayer: agents.agentLayer,
      hostLayer: agents.hostLayer,
      storage,
      updater,
      emit,
      flushSession: {
        flush: async (sessionID) => writers.get(sessionID)?.flush(),
        isRunning: (sessionID) => writers.has(sessionID),
      },
    });
    const offered = new Map<string, ReadonlyMap<string, Tool>>();
    const cwd = options.cwd ?? process.cwd();
    const dataDir = options.dataDir ?? defaultDataDir();
    this.snapshotEngine = options.snapshots === false ? undefined : new Snapshots({ workspace: cwd, dataDir });
    const defaultModel = { model: options.model, ref: modelRef(options.model) };
    this.runtime = {
      options,
      agents,
      hooks: options.hooks,
      modelFor: (agent) => {
        const own = agents.get(agent).model;
        return own ? { model: own, ref: modelRef(own) } : defaultModel;
      },
      cwd,
      dataDir,
      snapshots: new StepSnapshots(this.snapshotEngine),
      storage,
      tools,
      permissions,
      updater,
      writers,
      toolsFor: (agent) => {
        let forAgent = offered.get(agent);
        if (!forAgent) {
          forAgent = this.offeredTools(agent, tools);
          offered.set(agent, forAgent);
        }
        return forAgent;
      },
      // Names the process: a SessionBusyError elsewhere says who holds the session.
      leaseOwner: `agent_${createId("session").slice(4)}@${hostname()}:${process.pid}`,
      emit,
      sessionState: (sessionID) => {
        let state = this.states.get(sessionID);
        if (!state) this.states.set(sessionID, (state = new Map()));
        return state;
      },
      facts: (ref) => {
        const key = `${ref.providerID}/${ref.modelID}`;
        let facts = factsCache.get(key);
        if (!facts) factsCache.set(key, (facts = resolveModelFacts(ref, options.models, options.prices)));
        return facts;
      },
      budgets: new Map(),
      parentOf: (sessionID) => this.parents.get(sessionID),
      titles: undefined as unknown as SessionTitles,
    };
    // The titles service reads the runtime it belongs to.
    (this.runtime as { titles: SessionTitles }).titles = new SessionTitles(this.runtime);
    this.sessions = this.sessionsApi();
    this.permissions = {
      pending: (sessionID) => permissions.pending(sessionID),
      reply: (requestID, reply) => permissions.reply(requestID, reply),
    };
  }

  /**
   * Answers a prompt in a session. Returns at once with a {@link Run}: iterate it for events, await
   * it for the final assistant message.
   *
   * @throws {@link SessionBusyError} synchronously when the session already runs a prompt here.
   */
  prompt(sessionID: string, input: PromptInput, options: PromptOptions = {}): Run {
    this.assertOpen();
    if (options.limits !== undefined) parseLimits(options.limits, "limits of the prompt");
    if (this.runs.has(sessionID)) throw new SessionBusyError(sessionID);
    if (typeof input === "string" ? input.trim() === "" : input.length === 0) {
      throw new InvalidInputError("The prompt is empty.");
    }
    if (options.agent !== undefined) this.runtime.agents.get(options.agent);
    return this.start(sessionID, { kind: "prompt", input, options }, options);
  }

  /**
   * Continues a turn that a previous process left waiting for approval: the tool calls that were
   * waiting ask again and attach to their stored requests (answer them with
   * {@link Agent.permissions}, before or after calling this), and the turn goes on from there.
   * The run rejects with `NothingToResumeError` when the session's last turn is finished.
   *
   * @throws {@link SessionBusyError} synchronously when the session already runs a prompt here.
   */
  resume(sessionID: string, options: PromptOptions = {}): Run {
    this.assertOpen();
    if (this.runs.has(sessionID)) throw new SessionBusyError(sessionID);
    return this.start(sessionID, { kind: "resume", options }, options);
  }

  private start(sessionID: string, request: TurnRequest, options: PromptOptions): Run {
    const controller = new AbortController();
    if (options.signal) {
      if (options.signal.aborted) controller.abort(options.signal.reason);
      else options.signal.addEventListener("abort", () => controller.abort(options.signal!.reason), { once: true });
    }
    return new Run(sessionID, controller, (self) => {
      this.runs.set(sessionID, { run: self, controller });
      let busy = false;
      return runTurn(this.runtime, sessionID, request, controller.signal, () => (busy = true)).finally(() => {
        this.runs.delete(sessionID);
        if (!busy) return;
        // The run is gone first, so a listener may start the next prompt from this event; the run's
        // own iterators still receive it as their last event.
        const idle: AgentEvent = { type: "session.status", sessionID, status: { type: "idle" } };
        self.push(idle);
        this.emit(idle);
      });
    });
  }

  /** Aborts the session's running prompt, if any. Returns whether one was running. */
  abort(sessionID: string, reason?: string): boolean {
    const active = this.runs.get(sessionID);
    if (!active) return false;
    active.controller.abort(reason ?? "aborted");
    return true;
  }

  /** Whether the session runs a prompt in this agent. */
  isBusy(sessionID: string): boolean {
    return this.runs.has(sessionID);
  }

  /** Listens to events of every session; `*` receives every event. */
  on<T extends keyof AgentEventMap>(type: T, listener: (...args: AgentEventMap[T]) => void): this {
    this.emitter.on(type, this.guarded(type, listener) as never);
    return this;
  }

  /** Listens to the next event of a type only. */
  once<T extends keyof AgentEventMap>(type: T, listener: (...args: AgentEventMap[T]) => void): this {
    this.emitter.once(type, this.guarded(type, listener) as never);
    return this;
  }

  /** Stops listening. */
  off<T extends keyof AgentEventMap>(type: T, listener: (...args: AgentEventMap[T]) => void): this {
    const wrapper = this.wrappers.get(listener)?.get(type);
    if (wrapper) this.emitter.off(type, wrapper as never);
    return this;
  }

  /**
   * Wraps a listener so that one that throws neither breaks the loop nor keeps the event from the
   * listeners after it; the error is reported as a process warning.
   */
  private guarded(type: keyof AgentEventMap, listener: object): (...args: unknown[]) => void {
    let byType = this.wrappers.get(listener);
    if (!byType) this.wrappers.set(listener, (byType = new Map()));
    let wrapper = byType.get(type);
    if (!wrapper) {
      wrapper = (...args: unknown[]) => {
        try {
          (listener as (...a: unknown[]) => void)(...args);
        } catch (error) {
          // Once per listener: a broken listener would otherwise flood the warnings, one per delta.
          if (this.warnedListeners.has(listener)) return;
          this.warnedListeners.add(listener);
          process.emitWarning(`A Lathe event listener threw on ${String(type)}: ${String(error)}`, "LatheListenerWarning");
        }
      };
      byType.set(type, wrapper);
    }
    return wrapper;
  }

  /**
   * Aborts every running prompt, waits for them to finish, closes the `resources` it was given (MCP
   * tool sources…), and closes the storage if the agent made it (a storage the host passed in stays
   * open: the host owns it).
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const running = [...this.runs.values()];
    for (const { controller } of running) controller.abort("agent closed");
    await Promise.allSettled(running.map(({ run }) => run.then(() => undefined)));
    await this.runtime.titles.close();
    this.emitter.removeAllListeners();
    await Promise.allSettled((this.runtime.options.resources ?? []).map(async (resource) => resource.close()));
    if (this.ownsStorage) await this.runtime.storage.close();
  }

  /** The agents this instance knows, built-in and the host's (hidden internal agents left out). */
  agents(): AgentDefinition[] {
    return this.runtime.agents.list();
  }

  private emit(event: AgentEvent): void {
    // A subagent's events reach its own run and the runs of every session above it.
    for (let id: string | undefined = event.sessionID; id !== undefined; id = this.parents.get(id)) {
      this.runs.get(id)?.run.push(event);
    }
    // Listeners are guarded (see `guarded`), so one that throws cannot stop the others or the loop.
    this.emitter.emit(event.type, event as never);
    this.emitter.emit("*", event);
  }

  /** The tools an agent is offered: its switches, minus those its rules deny outright, plus the task tool. */
  private offeredTools(agent: string, tools: ReadonlyMap<string, Tool>): ReadonlyMap<string, Tool> {
    const definition = this.runtime.agents.get(agent);
    const ruleset = this.runtime.permissions.ruleset(agent);
    const switchedOff = (name: string) => definition.tools?.[name] === false;
    const hidden = disabled([...tools.keys(), "task"], ruleset);
    const offered = new Map([...tools].filter(([name]) => !hidden.has(name) && !switchedOff(name)));
    const subagents = this.runtime.agents.subagents().filter((a) => a.name !== agent && evaluate("task", a.name, ruleset).action !== "deny");
    // With the host's own tool list, the task tool comes only when an agent switches it on (`tools: { task: true }`).
    const wantsTask = definition.tools?.task === true || (this.runtime.options.tools === undefined && !switchedOff("task"));
    if (subagents.length > 0 && wantsTask && !hidden.has("task") && !offered.has("task")) {
      offered.set("task", createTaskTool(subagents, { runTask: (input) => this.runTask(input) }));
    }
    return offered;
  }

  /** Runs a subagent task in a child session; see {@link SubagentRunner}. */
  private async runTask(input: Parameters<SubagentRunner["runTask"]>[0]): Promise<RunResult & { sessionID: string }> {
    const storage = this.runtime.storage;
    let child: Session | undefined;
    if (input.taskID !== undefined) {
      child = await storage.getSession(input.taskID);
      if (!child || child.parentID !== input.parentSessionID) {
        throw new InvalidInputError(`There is no task ${input.taskID} of this session to continue.`);
      }
    } else {
      child = await this.sessions.create({ parentID: input.parentSessionID, kind: "task", title: `${input.description} (@${input.agent})` });
    }
    const before = child.usage;
    this.parents.set(child.id, input.parentSessionID);
    input.onStart?.(child.id);
    try {
      const result = await this.prompt(child.id, input.prompt, { agent: input.agent, signal: input.signal });
      // Roll the child's usage (its own and its subagents') up into the parent session.
      const after = (await storage.getSession(child.id))?.usage ?? before;
      await this.runtime.updater.update(input.parentSessionID, (parent) => {
        parent.usage = {
          tokens: addTokens(parent.usage.tokens, subtractTokens(after.tokens, before.tokens)),
          cost: parent.usage.cost + (after.cost - before.cost),
          steps: (parent.usage.steps ?? 0) + ((after.steps ?? 0) - (before.steps ?? 0)),
        };
      });
      return { ...result, sessionID: child.id };
    } finally {
      this.parents.delete(child.id);
    }
  }

  /** Every child session of a session, all pages. */
  private async allChildren(sessionID: string): Promise<Session[]> {
    const out: Session[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.runtime.storage.listSessions({ parentID: sessionID, ...(cursor ? { cursor } : {}) });
      out.push(...page.sessions);
      cursor = page.cursor;
    } while (cursor);
    return out;
  }

  private requireSnapshots(): Snapshots {
    if (!this.snapshotEngine?.enabled) throw new InvalidInputError("Snapshots are turned off for this agent (snapshots: false).");
    return this.snapshotEngine;
  }

  /** A session that exists and runs nothing here, with its history. */
  private async idleSession(sessionID: string): Promise<{ session: Session; history: Awaited<ReturnType<Storage["listMessages"]>> }> {
    this.assertOpen();
    if (this.runs.has(sessionID)) throw new SessionBusyError(sessionID);
    const session = await this.runtime.storage.getSession(sessionID);
    if (!session) throw new SessionNotFoundError(sessionID);
    return { session, history: await this.runtime.storage.listMessages(sessionID) };
  }

  private assertOpen(): void {
    if (this.closed) throw new AgentClosedError();
  }

  private sessionsApi(): SessionsApi {
    const rt = this.runtime;
    return {
      create: async (input = {}) => {
        this.assertOpen();
        const now = Date.now();
        if (input.limits !== undefined) parseLimits(input.limits, "limits of the session");
        const session: Session = {
          id: createId("session"),
          title: input.title ?? defaultTitle(now),
          directory: rt.cwd,
          time: { created: now, updated: now },
          usage: { tokens: emptyTokens(), cost: 0 },
          ...(input.parentID ? { parentID: input.parentID } : {}),
          ...(input.kind ? { kind: input.kind } : {}),
          ...(input.metadata ? { metadata: input.metadata } : {}),
          ...(input.limits ? { limits: { ...input.limits } } : {}),
        };
        await rt.storage.write({ sessions: [session] });
        this.emit({ type: "session.created", sessionID: session.id, session });
        return session;
      },
      get: (sessionID) => rt.storage.getSession(sessionID),
      list: (query) => rt.storage.listSessions(query),
      remove: async (sessionID) => {
        if (this.runs.has(sessionID)) throw new SessionBusyError(sessionID);
        const session = await rt.storage.getSession(sessionID);
        if (!session) throw new SessionNotFoundError(sessionID);
        // Subagent sessions belong to their parent and go with it; forks are independent and stay.
        for (const child of await this.allChildren(sessionID)) {
          if (child.kind === "task") await this.sessions.remove(child.id);
        }
        await rt.storage.removeSession(sessionID);
        await rm(sessionDataDir(rt, sessionID), { recursive: true, force: true });
        this.states.delete(sessionID);
        this.emit({ type: "session.deleted", sessionID, session });
      },
      messages: (sessionID) => rt.storage.listMessages(sessionID),
      revert: async (sessionID, point) => {
        const { session, history } = await this.idleSession(sessionID);
        if (!history.some((m) => m.info.id === point.messageID)) {
          throw new InvalidInputError(`Message ${point.messageID} is not in session ${sessionID}.`);
        }
        const snapshots = this.requireSnapshots();
        // A second revert before any prompt starts from the original state, not the reverted one.
        const undo = session.revert?.snapshot ?? (await snapshots.track());
        if (session.revert?.snapshot) await snapshots.restore(session.revert.snapshot);
        const trees = earliestTrees(patchesAfter(history, point));
        for (const [tree, files] of trees) await snapshots.revertFiles(tree, files);
        const updated = await rt.updater.update(sessionID, (current) => {
          current.revert = { messageID: point.messageID, ...(point.partID ? { partID: point.partID } : {}), snapshot: undo };
        });
        return updated!;
      },
      unrevert: async (sessionID) => {
        const { session } = await this.idleSession(sessionID);
        if (!session.revert?.snapshot) return session;
        await this.requireSnapshots().restore(session.revert.snapshot);
        const updated = await rt.updater.update(sessionID, (current) => {
          delete current.revert;
        });
        return updated!;
      },
      diff: async (sessionID, options = {}) => {
        const session = await rt.storage.getSession(sessionID);
        if (!session) throw new SessionNotFoundError(sessionID);
        const history = await rt.storage.listMessages(sessionID);
        if (options.messageID !== undefined && !history.some((m) => m.info.id === options.messageID)) {
          throw new InvalidInputError(`Message ${options.messageID} is not in session ${sessionID}.`);
        }
        const from = options.messageID ?? history[0]?.info.id;
        if (from === undefined) return [];
        const patches = patchesAfter(history, { messageID: from });
        if (patches.length === 0) return [];
        const snapshots = this.requireSnapshots();
        const now = await snapshots.track();
        const out: SnapshotFileDiff[] = [];
        for (const [tree, files] of earliestTrees(patches)) {
          const wanted = new Set(files);
          out.push(...(await snapshots.diff(tree, now)).filter((d) => wanted.has(d.path)));
        }
        return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
      },
      fork: async (sessionID, options = {}) => {
        this.assertOpen();
        if (this.runs.has(sessionID)) throw new SessionBusyError(sessionID);
        const source = await rt.storage.getSession(sessionID);
        if (!source) throw new SessionNotFoundError(sessionID);
        let history = await rt.storage.listMessages(sessionID);
        // A reverted session forks as it stands after the revert: the reverted messages are not copied.
        if (source.revert) history = afterRevert(history, source.revert);
        if (options.messageID !== undefined && !history.some((m) => m.info.id === options.messageID)) {
          throw new InvalidInputError(`Message ${options.messageID} is not in session ${sessionID}.`);
        }
        const { session, messages } = forkHistory(source, history, options.messageID);
        await rt.storage.write({
          sessions: [session],
          messages: messages.map((m) => m.info),
          parts: messages.flatMap((m) => m.parts),
        });
        this.emit({ type: "session.created", sessionID: session.id, session });
        return session;
      },
      compact: async (sessionID, options = {}) => {
        this.assertOpen();
        if (this.runs.has(sessionID)) throw new SessionBusyError(sessionID);
        return this.start(sessionID, { kind: "compact", options: {} }, options).then((result) => result);
      },
    };
  }
}

/** Checks the option groups that have schemas, so a typo fails at creation rather than mid-session. */
function validateOptions(options: AgentOptions): void {
  if (options.limits !== undefined) parseLimits(options.limits, "limits");
  for (const [key, facts] of Object.entries(options.models ?? {})) {
    const parsed = ModelFacts.strict().safeParse(facts);
    if (!parsed.success) throw new InvalidInputError(`models["${key}"] is invalid: ${parsed.error.issues.map(issueText).join("; ")}`);
  }
  for (const [key, price] of Object.entries(options.prices ?? {})) {
    const parsed = ModelPrice.safeParse(price);
    if (!parsed.success) throw new InvalidInputError(`prices["${key}"] is invalid: ${parsed.error.issues.map(issueText).join("; ")}`);
  }
  checkSwitches(options.retry, "retry", { maxRetries: "number", maxDelayMs: "number" });
  checkSwitches(options.compaction, "compaction", { auto: "boolean", prune: "boolean" });
  const retries = options.retry?.maxRetries;
  if (retries !== undefined && (!Number.isInteger(retries) || retries < 0)) {
    throw new InvalidInputError(`retry.maxRetries must be a whole number ≥ 0, got ${retries}.`);
  }
  const maxDelay = options.retry?.maxDelayMs;
  if (maxDelay !== undefined && !(maxDelay >= 0)) throw new InvalidInputError(`retry.maxDelayMs must be ≥ 0, got ${maxDelay}.`);
}

/**
 * Checks a small option group: an object of known keys whose values have the given types. A typo
 * (`maxRetry`) or a wrong type (`auto: "no"`) would otherwise be ignored and the default silently used.
 */
function checkSwitches(group: unknown, name: string, keys: Record<string, "number" | "boolean">): void {
  if (group === undefined) return;
  if (typeof group !== "object" || group === null || Array.isArray(group)) throw new InvalidInputError(`${name} must be an object, got ${JSON.stringify(group)}.`);
  for (const [key, value] of Object.entries(group)) {
    const type = keys[key];
    if (type === undefined) throw new InvalidInputError(`${name}.${key} is not an option; known: ${Object.keys(keys).join(", ")}.`);
    if (value !== undefined && typeof value !== type) throw new InvalidInputError(`${name}.${key} must be a ${type}, got ${JSON.stringify(value)}.`);
  }
}

function parseLimits(limits: unknown, what: string): void {
  const parsed = Limits.strict().safeParse(limits);
  if (!parsed.success) throw new InvalidInputError(`The ${what} are invalid: ${parsed.error.issues.map(issueText).join("; ")}`);
}

function issueText(issue: { path: PropertyKey[]; message: string }): string {
  return issue.path.length > 0 ? `${issue.path.map(String).join(".")}: ${issue.message}` : issue.message;
}

function defaultDataDir(): string {
  const base = process.env.XDG_DATA_HOME || join(homedir(), ".local", "share");
  return join(base, "lathe");
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
