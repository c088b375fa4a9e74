import { ForwardingStorage, type Storage, type WriteBatch } from "@lathe/storage";

/**
 * A worker's storage: every call goes to the shared storage, except that writes of a *fenced*
 * session are dropped. A worker fences a session to leave its turn exactly as stored — waiting for
 * approval, or handed back on shutdown — and then aborts the run: what the abort would record (the
 * call ended, the message closed) never reaches storage, so the next worker resumes the turn as if
 * this one had stopped at the fence.
 */
export class FencedStorage extends ForwardingStorage {
  private readonly fenced = new Set<string>();

  constructor(inner: Storage) {
    super(inner);
    // Always offered: a worker reports the version of whatever it stores through (0 when unknown).
    this.schemaVersion = async () => (await inner.schemaVersion?.()) ?? 0;
  }

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

  override async write(batch: WriteBatch): Promise<void> {
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
}
