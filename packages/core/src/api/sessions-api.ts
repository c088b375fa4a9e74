import { rm } from "node:fs/promises";
import { createId, emptyTokens, type Limits, type Session } from "@lathe/message";
import type { SessionQuery, SessionPage, Storage } from "@lathe/storage";
import { thaw } from "../loop/session-history.js";
import { InvalidInputError, SessionBusyError, SessionNotFoundError, type BudgetExceededError } from "../errors.js";
import type { AgentEvent } from "../events.js";
import { sessionDataDir } from "../loop/turn-common.js";
import type { RunResult } from "../loop/run.js";
import type { AgentRuntime } from "../loop/runtime.js";
import { afterRevert, earliestTrees, patchesAfter } from "../session/file-history.js";
import { forkHistory } from "../session/fork.js";
import { defaultTitle } from "../session/session-title.js";
import type { Snapshots, SnapshotFileDiff } from "../snapshot/index.js";
import { parseLimits } from "./option-checks.js";
import type { PermissionMode } from "@lathe/permission";
import { parseMode } from "../agents/permission-mode.js";
import { enterMode } from "../loop/turn-mode.js";

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
  /** This session's permission mode, over the agent's `mode`; see {@link PermissionMode}. */
  mode?: PermissionMode;
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
  /** Messages of a session with their parts: the caller's own copy, which it may change freely. */
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
  /**
   * Switches the session's permission mode, stored with the session: a running turn's next
   * permission checks use it at once, and later prompts start in it (unless a prompt sets its own).
   * Emits `session.mode`. Throws `InvalidInputError` for an unknown mode, {@link SessionNotFoundError}
   * for an unknown session.
   */
  setMode(sessionID: string, mode: PermissionMode): Promise<Session>;
}

/** What the sessions API needs from the agent that owns it. */
export interface SessionsHost {
  readonly runtime: AgentRuntime;
  /** Throws `AgentClosedError` once the agent is closed. */
  assertOpen(): void;
  /** Whether the session runs a prompt in this agent. */
  isBusy(sessionID: string): boolean;
  emit(event: AgentEvent): void;
  /** Drops the per-session state tools kept for a removed session. */
  forgetState(sessionID: string): void;
  /** The snapshot engine; throws when snapshots are turned off. */
  snapshots(): Snapshots;
  /** Starts an on-demand compaction run of an idle session. */
  compact(sessionID: string, options: { signal?: AbortSignal }): Promise<RunResult>;
}

/** The host's view of its sessions: create, list, remove, revert, diff, fork, compact. */
export function createSessionsApi(host: SessionsHost): SessionsApi {
  const rt = host.runtime;
  const api: SessionsApi = {
      create: async (input = {}) => {
        host.assertOpen();
        const now = Date.now();
        if (input.limits !== undefined) parseLimits(input.limits, "limits of the session");
        if (input.mode !== undefined) parseMode(input.mode, "The session's mode");
        const session: Session = {
          id: createId("session"),
          title: input.title ?? defaultTitle(now),
          directory: rt.cwd,
          time: { created: now, updated: now },
          usage: { tokens: emptyTokens(), cost: 0, countedThrough: "" },
          ...(input.parentID ? { parentID: input.parentID } : {}),
          ...(input.kind ? { kind: input.kind } : {}),
          ...(input.metadata ? { metadata: input.metadata } : {}),
          ...(input.limits ? { limits: { ...input.limits } } : {}),
          ...(input.mode ? { mode: input.mode } : {}),
        };
        await rt.storage.write({ sessions: [session] });
        host.emit({ type: "session.created", sessionID: session.id, session });
        return session;
      },
      get: (sessionID) => rt.storage.getSession(sessionID),
      list: (query) => rt.storage.listSessions(query),
      remove: async (sessionID) => {
        if (host.isBusy(sessionID)) throw new SessionBusyError(sessionID);
        const session = await rt.storage.getSession(sessionID);
        if (!session) throw new SessionNotFoundError(sessionID);
        // Subagent sessions belong to their parent and go with it; forks are independent and stay.
        for (const child of await allChildren(rt, sessionID)) {
          if (child.kind === "task") await api.remove(child.id);
        }
        await rt.storage.removeSession(sessionID);
        await rm(sessionDataDir(rt, sessionID), { recursive: true, force: true });
        host.forgetState(sessionID);
        host.emit({ type: "session.deleted", sessionID, session });
      },
      // The host's own copy, as every adapter's reads used to be: memory storage shares frozen records.
      messages: async (sessionID) => thaw(await rt.storage.listMessages(sessionID)),
      revert: async (sessionID, point) => {
        const { session, history } = await idleSession(host, sessionID);
        if (!history.some((m) => m.info.id === point.messageID)) {
          throw new InvalidInputError(`Message ${point.messageID} is not in session ${sessionID}.`);
        }
        const snapshots = host.snapshots();
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
        const { session } = await idleSession(host, sessionID);
        if (!session.revert?.snapshot) return session;
        await host.snapshots().restore(session.revert.snapshot);
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
        const snapshots = host.snapshots();
        const now = await snapshots.track();
        const out: SnapshotFileDiff[] = [];
        for (const [tree, files] of earliestTrees(patches)) {
          const wanted = new Set(files);
          out.push(...(await snapshots.diff(tree, now)).filter((d) => wanted.has(d.path)));
        }
        return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
      },
      fork: async (sessionID, options = {}) => {
        host.assertOpen();
        if (host.isBusy(sessionID)) throw new SessionBusyError(sessionID);
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
        host.emit({ type: "session.created", sessionID: session.id, session });
        return session;
      },
      compact: async (sessionID, options = {}) => {
        host.assertOpen();
        if (host.isBusy(sessionID)) throw new SessionBusyError(sessionID);
        return host.compact(sessionID, options);
      },
      setMode: async (sessionID, mode) => {
        host.assertOpen();
        parseMode(mode, "The mode");
        const updated = await rt.updater.update(sessionID, (current) => {
          current.mode = mode;
        });
        if (!updated) throw new SessionNotFoundError(sessionID);
        enterMode(rt, sessionID, mode);
        return updated;
      },
  };
  return api;
}

/** Every child session of a session, all pages. */
async function allChildren(rt: AgentRuntime, sessionID: string): Promise<Session[]> {
  const out: Session[] = [];
  let cursor: string | undefined;
  do {
    const page = await rt.storage.listSessions({ parentID: sessionID, ...(cursor ? { cursor } : {}) });
    out.push(...page.sessions);
    cursor = page.cursor;
  } while (cursor);
  return out;
}

/** A session that exists and runs nothing here, with its history. */
async function idleSession(host: SessionsHost, sessionID: string): Promise<{ session: Session; history: Awaited<ReturnType<Storage["listMessages"]>> }> {
  host.assertOpen();
  if (host.isBusy(sessionID)) throw new SessionBusyError(sessionID);
  const session = await host.runtime.storage.getSession(sessionID);
  if (!session) throw new SessionNotFoundError(sessionID);
  return { session, history: await host.runtime.storage.listMessages(sessionID) };
}
