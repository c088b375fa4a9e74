import type { MessageWithParts, Session } from "@lathe/message";
import type { Lease, SessionPage, SessionQuery, Storage } from "./storage.js";
import type { WriteBatch } from "./write-batch.js";

/**
 * A storage that hands every call to another one: the base of wrappers that change a few calls (an
 * agent's observed writes, a queue worker's fenced sessions) and pass the rest through. The optional
 * calls are offered only when the wrapped storage has them, so a wrapper promises no more than it can.
 */
export class ForwardingStorage implements Storage {
  getLease?: (sessionID: string) => Promise<Lease | undefined>;
  schemaVersion?: () => Promise<number>;

  /** The storage every call goes to. */
  readonly inner: Storage;

  // No parameter properties in this package: its sources also run under Node's type stripping.
  constructor(inner: Storage) {
    this.inner = inner;
    if (inner.getLease) this.getLease = (sessionID) => inner.getLease!(sessionID);
    if (inner.schemaVersion) this.schemaVersion = () => inner.schemaVersion!();
  }

  write(batch: WriteBatch): Promise<void> {
    return this.inner.write(batch);
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
  close(): Promise<void> {
    return this.inner.close();
  }
}
