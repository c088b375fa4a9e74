import type { AgentEvent } from "../events.js";

/** One event of a session's event log: its number in the session's sequence (1, 2, 3…) and the event. */
export interface LoggedEvent {
  seq: number;
  event: AgentEvent;
}

/** Options of {@link SessionsApi.stream}. */
export interface SessionStreamOptions {
  /**
   * The cursor: the last `seq` the client has seen. Events after it are replayed from the log, then
   * new ones follow live. `0` (the default) replays everything the log still holds; `"now"` skips
   * what was logged and gives only what comes next.
   */
  after?: number | "now";
  /** Ends the stream. */
  signal?: AbortSignal;
}

/** Options of {@link SessionEventLog.stream}: those of a session stream, and an end after what was logged. */
interface LogStreamOptions extends SessionStreamOptions {
  /** Once it settles, the stream gives what is logged by then and ends. */
  until?: Promise<unknown>;
}

/** Default of {@link EventLogOptions.perSession}. */
export const DEFAULT_EVENTS_PER_SESSION = 50_000;

/** How much of each session's events an agent keeps in memory for clients that rejoin. */
export interface EventLogOptions {
  /**
   * The most events kept per session (oldest dropped first); default {@link DEFAULT_EVENTS_PER_SESSION}.
   * A client whose cursor is older than the oldest kept event resumes from the oldest kept one.
   */
  perSession?: number;
}

interface SessionLog {
  /** The number of `events[0]`. */
  first: number;
  events: AgentEvent[];
  waiters: Set<() => void>;
}

/**
 * The agent's event log: every event of a session numbered in order, kept in memory (up to a limit)
 * so that a client that lost its connection — or a second tab — replays what it missed and goes on
 * live. A subagent session's events are logged under its own id and under every session above it,
 * as runs hear them. The numbers start at 1 with each process: they are cursors of this process's
 * log, not stored ids.
 */
export class SessionEventLog {
  private readonly logs = new Map<string, SessionLog>();
  private readonly limit: number;
  private closed = false;

  constructor(options: EventLogOptions = {}) {
    const limit = options.perSession ?? DEFAULT_EVENTS_PER_SESSION;
    if (!Number.isInteger(limit) || limit < 1) throw new TypeError(`eventLog.perSession must be a positive integer, got ${limit}.`);
    this.limit = limit;
  }

  /** Logs an event under a session; returns its number. */
  append(sessionID: string, event: AgentEvent): number {
    const log = this.log(sessionID);
    log.events.push(event);
    // Trim in batches, so a full log does not shift its array on every event.
    if (log.events.length > this.limit + Math.ceil(this.limit / 8)) {
      const drop = log.events.length - this.limit;
      log.events.splice(0, drop);
      log.first += drop;
    }
    if (log.waiters.size > 0) {
      const waiters = [...log.waiters];
      log.waiters.clear();
      for (const wake of waiters) wake();
    }
    return log.first + log.events.length - 1;
  }

  /** The number of the session's last logged event (0 when it has none). */
  last(sessionID: string): number {
    const log = this.logs.get(sessionID);
    return log ? log.first + log.events.length - 1 : 0;
  }

  /** The session's logged events after `after`, oldest first (from the oldest kept one when `after` is older). */
  read(sessionID: string, after = 0): LoggedEvent[] {
    const log = this.logs.get(sessionID);
    return log ? readLog(log, after) : [];
  }


  /** Logged events after the cursor, then each new one as it is logged, until `signal` aborts or the log closes. */
  async *stream(sessionID: string, options: LogStreamOptions = {}): AsyncGenerator<LoggedEvent> {
    const { signal } = options;
    let ending = false;
    let cursor = options.after === "now" ? this.last(sessionID) : (options.after ?? 0);
    if (!Number.isInteger(cursor) || cursor < 0) throw new TypeError(`A stream's cursor is a logged event's number, got ${String(options.after)}.`);
    const log = this.log(sessionID);
    let wake: (() => void) | undefined;
    const onAbort = () => wake?.();
    signal?.addEventListener("abort", onAbort);
    void options.until?.then(
      () => ((ending = true), wake?.()),
      () => ((ending = true), wake?.()),
    );
    try {
      while (!signal?.aborted && !this.closed) {
        const next = readLog(log, cursor);
        if (next.length === 0) {
          // A removed session's log is forgotten: its streams end once they gave its last events.
          if (ending || this.logs.get(sessionID) !== log) return;
          await new Promise<void>((resolve) => {
            wake = resolve;
            log.waiters.add(resolve);
          });
          log.waiters.delete(wake!);
          wake = undefined;
          continue;
        }
        for (const item of next) {
          if (signal?.aborted || this.closed) return;
          cursor = item.seq;
          yield item;
        }
      }
    } finally {
      signal?.removeEventListener("abort", onAbort);
      if (wake) log.waiters.delete(wake);
    }
  }

  /** Forgets a removed session's events (its open streams end). */
  forget(sessionID: string): void {
    const log = this.logs.get(sessionID);
    if (!log) return;
    this.logs.delete(sessionID);
    for (const wake of log.waiters) wake();
  }

  /** Ends every open stream. */
  close(): void {
    this.closed = true;
    for (const log of this.logs.values()) for (const wake of log.waiters) wake();
  }

  private log(sessionID: string): SessionLog {
    let log = this.logs.get(sessionID);
    if (!log) this.logs.set(sessionID, (log = { first: 1, events: [], waiters: new Set() }));
    return log;
  }
}

/** A log's events after `after`, from the oldest kept one when `after` is older. */
function readLog(log: SessionLog, after: number): LoggedEvent[] {
  const from = Math.max(0, after + 1 - log.first);
  return log.events.slice(from).map((event, i) => ({ seq: log.first + from + i, event }));
}
