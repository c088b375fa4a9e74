import type { Session } from "@lathe/message";
import { ForwardingStorage, type Storage, type WriteBatch } from "@lathe/storage";

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
export class ObservedStorage extends ForwardingStorage {
  constructor(
    inner: Storage,
    private readonly observer: WriteObserver,
  ) {
    super(inner);
  }

  override async write(batch: WriteBatch): Promise<void> {
    try {
      await this.inner.write(batch);
    } catch (error) {
      this.observer.failed(batch);
      throw error;
    }
    this.observer.written(batch);
  }

  override async getSession(sessionID: string): Promise<Session | undefined> {
    const session = await this.inner.getSession(sessionID);
    if (session) this.observer.read(session);
    return session;
  }

  override removeSession(sessionID: string): Promise<void> {
    // Told first: whatever was loaded of the session is gone with it, even if the removal fails half-way.
    this.observer.removed(sessionID);
    return this.inner.removeSession(sessionID);
  }
}
