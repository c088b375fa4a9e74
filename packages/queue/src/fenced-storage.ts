import type { Lease, SessionPage, SessionQuery, Storage, WriteBatch } from "@lathe/storage";
import type { MessageWithParts, Session } from "@lathe/message";

/**
 * A worker's storage: every call goes to the shared storage, except that writes of a *fenced*
 * session are dropped. A worker fences a session to leave its turn exactly as stored — waiting for
 * approval, or handed back on shutdown — and then aborts the run: what the abort would record (the
 * call ended, the message closed) never reaches storage, so the next worker resumes the turn as if
 * this one had stopped at the fence.
 */
export class FencedStorage implements Storage {
  private readonly fenced = new Set<string>();

  constructor(private readonly inner: Storage) {}

  /** Drops this session's writes from now on. */
  fence(sessionID: string): void {
    this.fenced.add(sessionID);
  }

  /** Lets this session's writes through again. */
  unfence(sessionID: string): void {
    this.fenced.delete(sessionID);
  }

  isFenced(sessionID: string): boolean {
    return this.fenced.has(sessionID);
  }

  async write(batch: WriteBatch): Promise<void> {
    if (this.fenced.size === 0) return this.inner.write(batch);
    const open = <T>(list: T[] | undefined, id: (item: T) => string) => list?.filter((item) => !this.fenced.has(id(item)));
    const kept: WriteBatch = {
      sessions: open(batch.sessions, (s) => s.id),
      messages: open(batch.messages, (m) => m.sessionID),
      parts: open(batch.parts, (p) => p.sessionID),
      removeMessages: open(batch.removeMessages, (k) => k.sessionID),
      removeParts: open(batch.removeParts, (k) => k.sessionID),
    };
    if (Object.values(kept).every((list) => !list || list.length === 0)) return;
    return this.inner.write(kept);
  }

  getSession(sessionID: string): Promise<Session | undefined> {
    return this.inner.getSession(sessionID);
  }
  listSessions(query?: SessionQuery): Promise<SessionPage> {
    return this.inner.listSessions(query);
  }
  removeSession(sessionID: string): Promise<void> {
    return this.inner.removeSession(sessionID);
  }
  getMessage(sessionID: string, messageID: string): Promise<MessageWithParts | undefined> {
    return this.inner.getMessage(sessionID, messageID);
  }
  listMessages(sessionID: string): Promise<MessageWithParts[]> {
    return this.inner.listMessages(sessionID);
  }
  acquireLease(sessionID: string, owner: string, ttlMs: number): Promise<Lease | undefined> {
    return this.inner.acquireLease(sessionID, owner, ttlMs);
  }
  renewLease(sessionID: string, owner: string, ttlMs: number): Promise<Lease | undefined> {
    return this.inner.renewLease(sessionID, owner, ttlMs);
  }
  releaseLease(sessionID: string, owner: string): Promise<void> {
    return this.inner.releaseLease(sessionID, owner);
  }
  async schemaVersion(): Promise<number> {
    return (await this.inner.schemaVersion?.()) ?? 0;
  }
  close(): Promise<void> {
    return this.inner.close();
  }
}
