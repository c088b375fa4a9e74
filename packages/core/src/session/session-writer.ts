import type { Message, Part, Session } from "@lathe/message";
import type { PartKey, Storage, WriteBatch } from "@lathe/storage";
import { klona as cloneData } from "klona/json";

/**
 * Persists a run's changes coalesced: a part updated 100,000 times while streaming is written a
 * handful of times (at most once per interval), and everything pending is written together in one
 * batch. `flush()` writes what is pending now and resolves once it is stored; the loop awaits it at
 * each step's end so a part's final state is always stored before the next step starts.
 *
 * Writes never overlap: a flush requested while one is in flight runs after it. A failed background
 * write is reported by the next `flush()`, so the run fails loudly rather than losing data silently.
 */
export class SessionWriter {
  private sessions = new Map<string, Session>();
  private messages = new Map<string, Message>();
  private parts = new Map<string, Part>();
  private removedParts = new Map<string, PartKey>();
  private timer: NodeJS.Timeout | undefined;
  private inFlight: Promise<void> = Promise.resolve();
  private failure: unknown;

  constructor(
    private readonly storage: Storage,
    private readonly intervalMs: number,
  ) {}

  /** Marks a session for writing. */
  session(session: Session): void {
    this.sessions.set(session.id, session);
    this.schedule();
  }

  /** Marks a message for writing. */
  message(message: Message): void {
    this.messages.set(message.id, message);
    this.schedule();
  }

  /** Marks a part for writing. The latest state wins; earlier unwritten states are never written. */
  part(part: Part): void {
    this.parts.set(part.id, part);
    this.schedule();
  }

  /** Marks a part for removal; a pending write of it is dropped. */
  removePart(part: Part): void {
    this.parts.delete(part.id);
    this.removedParts.set(part.id, { sessionID: part.sessionID, messageID: part.messageID, partID: part.id });
    this.schedule();
  }

  /** Writes everything pending and resolves when it is stored; rejects if any write failed. */
  flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    const batch = this.take();
    const write = this.inFlight.then(() => (batch ? this.storage.write(batch) : undefined));
    this.inFlight = write.catch((error) => {
      this.failure ??= error;
    });
    return this.inFlight.then(() => {
      if (this.failure !== undefined) {
        const error = this.failure;
        this.failure = undefined;
        throw error;
      }
    });
  }

  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      // Background flushes keep their failure for the next awaited flush.
      this.flush().catch((error) => {
        this.failure ??= error;
      });
    }, this.intervalMs);
    this.timer.unref?.();
  }

  private take(): WriteBatch | undefined {
    if (this.sessions.size === 0 && this.messages.size === 0 && this.parts.size === 0 && this.removedParts.size === 0) return undefined;
    // Snapshot the objects: the loop keeps mutating them after this point. They are JSON data, which
    // a plain deep copy clones several times faster than structuredClone.
    const batch: WriteBatch = {
      sessions: [...this.sessions.values()].map((s) => cloneData(s)),
      messages: [...this.messages.values()].map((m) => cloneData(m)),
      parts: [...this.parts.values()].map((p) => cloneData(p)),
      ...(this.removedParts.size > 0 ? { removeParts: [...this.removedParts.values()] } : {}),
    };
    this.removedParts = new Map();
    this.sessions = new Map();
    this.messages = new Map();
    this.parts = new Map();
    return batch;
  }
}
