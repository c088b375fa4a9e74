import type { PostgresEventLog } from "@lathe/storage-postgres";

/**
 * Carries a worker's events to the session event log in batches: a streaming turn emits an event
 * per token, so they are gathered for a few milliseconds and appended together (one insert, one
 * NOTIFY). Batches of one session are appended in order, one after another.
 */
export class EventForwarder {
  private readonly pending = new Map<string, unknown[]>();
  private readonly chains = new Map<string, Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private failure: unknown;

  constructor(
    private readonly log: PostgresEventLog,
    private readonly intervalMs = 20,
  ) {}

  push(sessionID: string, event: unknown): void {
    const list = this.pending.get(sessionID);
    if (list) list.push(event);
    else this.pending.set(sessionID, [event]);
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      void this.send();
    }, this.intervalMs);
  }

  /** Appends everything gathered so far and resolves once it is stored; rejects if an append failed. */
  async flush(sessionID?: string): Promise<void> {
    await this.send();
    await (sessionID === undefined ? Promise.all(this.chains.values()) : this.chains.get(sessionID));
    if (this.failure !== undefined) {
      const error = this.failure;
      this.failure = undefined;
      throw error;
    }
  }

  private send(): Promise<unknown> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const sent: Promise<void>[] = [];
    for (const [sessionID, events] of this.pending) {
      const previous = this.chains.get(sessionID) ?? Promise.resolve();
      const next = previous.then(async () => {
        await this.log.append(sessionID, events);
      }).catch((error: unknown) => {
        this.failure ??= error;
      });
      this.chains.set(sessionID, next);
      void next.finally(() => {
        if (this.chains.get(sessionID) === next) this.chains.delete(sessionID);
      });
      sent.push(next);
    }
    this.pending.clear();
    return Promise.all(sent);
  }
}
