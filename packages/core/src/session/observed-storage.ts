import type { MessageWithParts, Session } from "@lathe/message";
import type { Lease, SessionPage, SessionQuery, Storage, WriteBatch } from "@lathe/storage";

/** Told of every change made through an {@link ObservedStorage}. */
export interface WriteObserver {
  /** A batch was stored. */
  written(batch: WriteBatch): void;
  /** A batch failed: how much of it was stored is unknown. */
  failed(batch: WriteBatch): void;
  /** A session is being removed. */
  removed(sessionID: string): void;
  /** A session record was read: it shows whether anyone else wrote the session since this agent did. */
  read(session: Session): void;
}

/**
 * The host's storage with the agent's own writes reported to an observer (the sessions' loaded
 * histories, which follow them instead of reading the session again). Everything else passes through.
 */
export class ObservedStorage implements Storage {
  readonly getLease?: (sessionID: string) => Promise<Lease | undefined>;
  readonly schemaVersion?: () => Promise<number>;

  constructor(
    readonly inner: Storage,
    private readonly observer: WriteObserver,
  ) {
    if (inner.getLease) this.getLease = (sessionID) => inner.getLease!(sessionID);
    if (inner.schemaVersion) this.schemaVersion = () => inner.schemaVersion!();
  }

  async write(batch: WriteBatch): Promise<void> {
    try {
      await this.inner.write(batch);
    } catch (error) {
      this.observer.failed(batch);
      throw error;
    }
    this.observer.written(batch);
  }

  async getSession(sessionID: string): Promise<Session | undefined> {
    const session = await this.inner.getSession(sessionID);
    if (session) this.observer.read(session);
    return session;
  }

  listSessions(query?: SessionQuery): Promise<SessionPage> {
    return this.inner.listSessions(query);
  }

  removeSession(sessionID: string): Promise<void> {
    // Told first: whatever was loaded of the session is gone with it, even if the removal fails half-way.
    this.observer.removed(sessionID);
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
