import type { Session } from "@lathe/message";
import type { Storage, WriteBatch } from "@lathe/storage";
import type { AgentEvent } from "../events.js";

/**
 * Read-modify-write of session records, one at a time per session: usage totals, permission state
 * and todos are all kept on the session, and are changed from several places (the loop, approval
 * hooks, tools). Each update reads the stored record fresh, so no update overwrites another.
 */
export class SessionUpdater {
  private readonly chains = new Map<string, Promise<unknown>>();

  constructor(
    private readonly storage: Storage,
    private readonly emit: (event: AgentEvent) => void,
  ) {}

  /**
   * Applies `mutate` to the stored session and stores it; resolves to the new record (undefined if
   * there is none). Records in `along` are stored in the same write, before the session (a file
   * adapter writes sessions last), so a change the session counts is never stored after it.
   */
  update(sessionID: string, mutate: (session: Session) => void, along?: Omit<WriteBatch, "sessions">): Promise<Session | undefined> {
    return this.change(sessionID, mutate, along, true);
  }

  /**
   * Stamps the session as written now (`time.updated`, always later than its last value), with the
   * records in `along` in the same write, without telling the host: a turn does it with its first
   * write, so that any agent that loaded the session before sees it changed (see `SessionHistories`).
   * Resolves to the new record.
   */
  touch(sessionID: string, along?: Omit<WriteBatch, "sessions">): Promise<Session | undefined> {
    return this.change(sessionID, () => {}, along, false);
  }

  private change(sessionID: string, mutate: (session: Session) => void, along: Omit<WriteBatch, "sessions"> | undefined, announce: boolean): Promise<Session | undefined> {
    const previous = this.chains.get(sessionID) ?? Promise.resolve();
    const next = previous
      .catch(() => {})
      .then(async () => {
        const session = await this.storage.getSession(sessionID);
        if (!session) return undefined;
        const before = session.time.updated;
        session.time.updated = Date.now();
        mutate(session);
        if (!announce) session.time.updated = Math.max(session.time.updated, before + 1);
        await this.storage.write({ ...along, sessions: [session] });
        if (announce) this.emit({ type: "session.updated", sessionID, session: structuredClone(session) });
        return session;
      });
    this.chains.set(sessionID, next);
    // Drop the chain once idle so the map does not grow with every session ever touched.
    void next.finally(() => {
      if (this.chains.get(sessionID) === next) this.chains.delete(sessionID);
    }).catch(() => {});
    return next;
  }
}
