import pg from "pg";
import { migratePostgres } from "./postgres-migrations.js";
import { MIGRATIONS } from "./postgres-schema.js";

/** One stored event of a session: its place in the session's sequence (1, 2, 3…) and the event. */
export interface LoggedEvent<E = unknown> {
  seq: number;
  event: E;
}

/** How to reach the database, as for {@link PostgresStorage}; the same `schema` as the storage's. */
export type PostgresEventLogOptions = ({ connectionString: string; pool?: never } | { pool: pg.Pool; connectionString: string }) & {
  /** The PostgreSQL schema; default `"lathe"`. */
  schema?: string;
};

/** Options of {@link PostgresEventLog.subscribe}. */
export interface SubscribeOptions {
  /** The cursor: the last `seq` the client has seen (0 or absent: from the session's first event). */
  after?: number;
  /** Ends the subscription. */
  signal?: AbortSignal;
}

/**
 * NOTIFY payloads are limited to 8000 bytes. A batch that fits travels inline; a bigger one is sent
 * as its sequence range only, and subscribers read it from the table.
 */
const INLINE_LIMIT = 7_800;

interface Notice {
  s: string;
  from: number;
  to: number;
  events?: unknown[];
}

/**
 * A session's events, stored in PostgreSQL and announced with `LISTEN/NOTIFY`, so a client connected
 * to one process sees the events of a turn that another process runs. Every event gets the next
 * number of its session's sequence; a subscriber passes the last number it saw and receives every
 * later event once, in order — what was stored before it subscribed from the table, what comes next
 * from the notifications (read back from the table whenever one was too big to travel inline or a
 * gap shows). One session has one writer at a time (the session lease), so its numbers are dense.
 */
export class PostgresEventLog {
  readonly schema: string;
  private readonly pool: pg.Pool;
  private readonly ownsPool: boolean;
  private readonly connectionString: string;
  private readonly ready: Promise<number>;
  private readonly channel: string;
  private listener: Promise<pg.Client> | undefined;
  private readonly subscribers = new Map<string, Set<(notice: Notice) => void>>();
  private closed = false;

  constructor(options: PostgresEventLogOptions) {
    const schema = options.schema ?? "lathe";
    if (!/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(schema)) throw new TypeError(`invalid PostgreSQL schema name ${JSON.stringify(schema)}`);
    this.schema = schema;
    this.connectionString = options.connectionString;
    this.channel = `${schema}_events`.toLowerCase();
    this.ownsPool = !options.pool;
    this.pool = options.pool ?? new pg.Pool({ connectionString: options.connectionString, max: 4 });
    if (this.ownsPool) this.pool.on("error", () => {});
    this.ready = this.pool.connect().then(async (client) => {
      try {
        return await migratePostgres(client, schema, MIGRATIONS);
      } finally {
        client.release();
      }
    });
    this.ready.catch(() => {});
  }

  /** Stores events of a session (numbered after its last one) and announces them. Returns the last number given. */
  async append(sessionID: string, events: readonly unknown[]): Promise<number> {
    await this.ready;
    if (events.length === 0) return this.last(sessionID);
    const data = events.map((e) => JSON.stringify(e));
    const client = await this.pool.connect();
    try {
      await client.query("BEGIN");
      const { rows } = await client.query<{ seq: string }>(
        `INSERT INTO "${this.schema}".event (session_id, seq, data)
         SELECT $1, coalesce((SELECT max(seq) FROM "${this.schema}".event WHERE session_id = $1), 0) + n, d
         FROM unnest($2::text[]) WITH ORDINALITY AS t(d, n) RETURNING seq`,
        [sessionID, data],
      );
      const seqs = rows.map((r) => Number(r.seq));
      const from = Math.min(...seqs);
      const to = Math.max(...seqs);
      const inline = JSON.stringify({ s: sessionID, from, to, events });
      const notice = Buffer.byteLength(inline) <= INLINE_LIMIT ? inline : JSON.stringify({ s: sessionID, from, to });
      // Delivered at commit, so a subscriber that reads the table on the notice finds the rows.
      await client.query("SELECT pg_notify($1, $2)", [this.channel, notice]);
      await client.query("COMMIT");
      return to;
    } catch (error) {
      await client.query("ROLLBACK").catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }

  /** The session's events after `after`, oldest first (at most `limit`). */
  async read<E = unknown>(sessionID: string, after = 0, limit = 10_000): Promise<LoggedEvent<E>[]> {
    await this.ready;
    const { rows } = await this.pool.query<{ seq: string; data: string }>(
      `SELECT seq, data FROM "${this.schema}".event WHERE session_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
      [sessionID, after, limit],
    );
    return rows.map((r) => ({ seq: Number(r.seq), event: JSON.parse(r.data) as E }));
  }

  /** The number of the session's last event (0 when it has none). */
  async last(sessionID: string): Promise<number> {
    await this.ready;
    const { rows } = await this.pool.query<{ seq: string | null }>(`SELECT max(seq) AS seq FROM "${this.schema}".event WHERE session_id = $1`, [sessionID]);
    return Number(rows[0]?.seq ?? 0);
  }

  /** Forgets a session's events up to and including `through` (all of them when absent). */
  async trim(sessionID: string, through?: number): Promise<void> {
    await this.ready;
    await this.pool.query(`DELETE FROM "${this.schema}".event WHERE session_id = $1 AND seq <= $2`, [sessionID, through ?? Number.MAX_SAFE_INTEGER]);
  }

  /**
   * The session's events after the cursor, then every new one as it is appended by any process,
   * each once and in order, until `signal` aborts or the iteration is ended.
   */
  async *subscribe<E = unknown>(sessionID: string, options: SubscribeOptions = {}): AsyncGenerator<LoggedEvent<E>> {
    let cursor = options.after ?? 0;
    const signal = options.signal;
    const inbox: Notice[] = [];
    let wake: (() => void) | undefined;
    const onNotice = (notice: Notice) => {
      inbox.push(notice);
      wake?.();
    };
    const onAbort = () => wake?.();
    // Listen first, then read what is stored: an event appended in between comes both ways and the cursor drops the copy.
    await this.listen(sessionID, onNotice);
    signal?.addEventListener("abort", onAbort);
    try {
      let backlog = true;
      while (!signal?.aborted && !this.closed) {
        if (backlog) {
          backlog = false;
          for (;;) {
            const page = await this.read<E>(sessionID, cursor, 1_000);
            for (const item of page) {
              cursor = item.seq;
              yield item;
            }
            if (page.length < 1_000) break;
          }
          continue;
        }
        const notice = inbox.shift();
        if (!notice) {
          await new Promise<void>((resolve) => (wake = resolve));
          wake = undefined;
          continue;
        }
        if (notice.to <= cursor) continue;
        if (notice.events && notice.from === cursor + 1) {
          for (const [i, event] of notice.events.entries()) {
            cursor = notice.from + i;
            yield { seq: cursor, event: event as E };
          }
        } else backlog = true; // too big to travel inline, or a gap: read the table
      }
    } finally {
      signal?.removeEventListener("abort", onAbort);
      this.unlisten(sessionID, onNotice);
    }
  }

  /** Ends the listening connection and, if the log made it, the pool. Subscriptions end. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const set of this.subscribers.values()) for (const fn of set) fn({ s: "", from: 0, to: 0 });
    this.subscribers.clear();
    const listener = this.listener;
    this.listener = undefined;
    if (listener) await listener.then((c) => c.end()).catch(() => {});
    await this.ready.catch(() => {});
    if (this.ownsPool) await this.pool.end();
  }

  private async listen(sessionID: string, fn: (notice: Notice) => void): Promise<void> {
    let set = this.subscribers.get(sessionID);
    if (!set) this.subscribers.set(sessionID, (set = new Set()));
    set.add(fn);
    await this.connectListener();
  }

  private unlisten(sessionID: string, fn: (notice: Notice) => void): void {
    const set = this.subscribers.get(sessionID);
    set?.delete(fn);
    if (set?.size === 0) this.subscribers.delete(sessionID);
  }

  /** One connection LISTENs for every subscription of this log; a lost connection is remade and every subscriber re-reads the table. */
  private connectListener(): Promise<pg.Client> {
    this.listener ??= (async () => {
      await this.ready;
      const client = new pg.Client({ connectionString: this.connectionString });
      client.on("notification", (message) => {
        if (message.channel !== this.channel || !message.payload) return;
        const notice = JSON.parse(message.payload) as Notice;
        for (const fn of this.subscribers.get(notice.s) ?? []) fn(notice);
      });
      client.on("error", () => {
        this.listener = undefined;
        if (this.closed) return;
        // Every subscriber reads from its cursor once the new connection listens: nothing is missed.
        void this.connectListener().then(() => {
          for (const [s, set] of this.subscribers) for (const fn of set) fn({ s, from: Number.MAX_SAFE_INTEGER, to: Number.MAX_SAFE_INTEGER });
        }, () => {});
      });
      await client.connect();
      await client.query(`LISTEN "${this.channel}"`);
      return client;
    })();
    const pending = this.listener;
    pending.catch(() => {
      if (this.listener === pending) this.listener = undefined;
    });
    return pending;
  }
}
