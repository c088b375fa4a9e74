import type { Message, MessageWithParts, Part, Session } from "@lathe/message";
import {
  latestVersion,
  pageLimit,
  validateBatch,
  type Lease,
  type SessionPage,
  type SessionQuery,
  type Storage,
  type WriteBatch,
} from "@lathe/storage";
import pg from "pg";
import { migratePostgres, type PostgresMigration } from "./postgres-migrations.js";

/** How to reach the database: a connection string (the storage makes and ends its own pool) or your pool. */
export type PostgresStorageOptions = ({ connectionString: string; pool?: never } | { pool: pg.Pool; connectionString?: never }) & {
  /**
   * The PostgreSQL schema the tables live in, created if missing; default `"lathe"`. Letters, digits
   * and `_` only. Workers that share sessions use the same schema.
   */
  schema?: string;
};

// Ids compare byte-wise (`COLLATE "C"`), the order createId makes them in, whatever the database's locale.
// The schema's migrations, shared with the event log (event-log.ts): the same tables, one version.
export const MIGRATIONS: PostgresMigration[] = [
  {
    version: 1,
    description: "session, message, part and lease tables",
    async up(client) {
      await client.query(`
        CREATE TABLE session (id text COLLATE "C" PRIMARY KEY, parent_id text COLLATE "C", data text NOT NULL);
        CREATE INDEX session_parent ON session (parent_id, id);
        CREATE TABLE message (
          session_id text COLLATE "C" NOT NULL, id text COLLATE "C" NOT NULL, data text NOT NULL,
          PRIMARY KEY (session_id, id)
        );
        CREATE TABLE part (
          session_id text COLLATE "C" NOT NULL, message_id text COLLATE "C" NOT NULL, id text COLLATE "C" NOT NULL,
          data text NOT NULL,
          PRIMARY KEY (session_id, message_id, id)
        );
        CREATE TABLE lease (session_id text COLLATE "C" PRIMARY KEY, owner text NOT NULL, expires_at bigint NOT NULL);
      `);
    },
  },
  {
    version: 2,
    description: "session event log (subscribers resume from a per-session sequence number)",
    async up(client) {
      await client.query(`
        CREATE TABLE event (session_id text COLLATE "C" NOT NULL, seq bigint NOT NULL, data text NOT NULL, PRIMARY KEY (session_id, seq));
      `);
    },
  },
];

/** The schema version {@link PostgresStorage} writes, kept in the `schema_version` table. */
export const POSTGRES_STORAGE_SCHEMA_VERSION = latestVersion(MIGRATIONS);

/** The database's clock in ms since epoch: lease expiries are judged by one clock for every worker. */
const NOW_MS = "(extract(epoch from clock_timestamp()) * 1000)::bigint";

/** Keeps the last of several records with the same key: a batch's later write wins, as in memory. */
function lastByKey<T>(records: T[], key: (r: T) => string): T[] {
  const map = new Map<string, T>();
  for (const r of records) {
    const k = key(r);
    map.delete(k);
    map.set(k, r);
  }
  return [...map.values()];
}

const parseList = <T>(json: string | null): T[] => (json ? (JSON.parse(json) as T[]) : []);

/**
 * Keeps sessions in PostgreSQL with `pg`, for hosts that run many workers: any worker can resume any
 * session. Each `write` batch is one transaction (a statement per kind of record, however many
 * records); the session lease is a row with an expiry, taken atomically with
 * `INSERT … ON CONFLICT … WHERE expired OR same owner` and judged by the database's clock. The
 * schema is created or migrated forward on first use (a `schema_version` table, under an advisory
 * lock so workers starting together migrate once).
 */
export class PostgresStorage implements Storage {
  /** The PostgreSQL schema the tables live in. */
  readonly schema: string;
  private readonly pool: pg.Pool;
  private readonly ownsPool: boolean;
  private readonly ready: Promise<number>;
  /** Schema-qualified table names: a pool the host shares keeps its own search_path. */
  private readonly table: Record<"session" | "message" | "part" | "lease", string>;
  private closed = false;

  constructor(options: PostgresStorageOptions) {
    const schema = options.schema ?? "lathe";
    if (!/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(schema)) throw new TypeError(`invalid PostgreSQL schema name ${JSON.stringify(schema)}`);
    this.schema = schema;
    if (options.pool) {
      this.pool = options.pool;
      this.ownsPool = false;
    } else {
      this.pool = new pg.Pool({ connectionString: options.connectionString });
      // An idle connection the server drops (restart, failover) must not crash the host; the pool
      // replaces it, and a query on a dead connection fails on its own.
      this.pool.on("error", () => {});
      this.ownsPool = true;
    }
    const table = (name: string) => `"${schema}".${name}`;
    this.table = { session: table("session"), message: table("message"), part: table("part"), lease: table("lease") };
    this.ready = this.withClient((client) => migratePostgres(client, schema, MIGRATIONS));
    this.ready.catch(() => {}); // reported by every call that awaits it
  }

  /** Connects and migrates, so that connection and migration errors throw here rather than on first use. */
  static async open(options: PostgresStorageOptions): Promise<PostgresStorage> {
    const storage = new PostgresStorage(options);
    try {
      await storage.ready;
    } catch (error) {
      await storage.close();
      throw error;
    }
    return storage;
  }

  async schemaVersion(): Promise<number> {
    return this.ready;
  }

  async write(input: WriteBatch): Promise<void> {
    const batch = validateBatch(input);
    const parts = lastByKey(batch.parts, (p) => `${p.sessionID}\0${p.messageID}\0${p.id}`);
    const messages = lastByKey(batch.messages, (m) => `${m.sessionID}\0${m.id}`);
    const sessions = lastByKey(batch.sessions, (s) => s.id);
    await this.transaction(async (client) => {
      if (parts.length) {
        await client.query(
          `INSERT INTO ${this.table.part} (session_id, message_id, id, data)
           SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[])
           ON CONFLICT (session_id, message_id, id) DO UPDATE SET data = excluded.data`,
          [parts.map((p) => p.sessionID), parts.map((p) => p.messageID), parts.map((p) => p.id), parts.map((p) => JSON.stringify(p))],
        );
      }
      if (messages.length) {
        await client.query(
          `INSERT INTO ${this.table.message} (session_id, id, data) SELECT * FROM unnest($1::text[], $2::text[], $3::text[])
           ON CONFLICT (session_id, id) DO UPDATE SET data = excluded.data`,
          [messages.map((m) => m.sessionID), messages.map((m) => m.id), messages.map((m) => JSON.stringify(m))],
        );
      }
      if (sessions.length) {
        await client.query(
          `INSERT INTO ${this.table.session} (id, parent_id, data) SELECT * FROM unnest($1::text[], $2::text[], $3::text[])
           ON CONFLICT (id) DO UPDATE SET parent_id = excluded.parent_id, data = excluded.data`,
          [sessions.map((s) => s.id), sessions.map((s) => s.parentID ?? null), sessions.map((s) => JSON.stringify(s))],
        );
      }
      if (batch.removeMessages.length) {
        const keys = [batch.removeMessages.map((k) => k.sessionID), batch.removeMessages.map((k) => k.messageID)];
        await client.query(`DELETE FROM ${this.table.part} WHERE (session_id, message_id) IN (SELECT * FROM unnest($1::text[], $2::text[]))`, keys);
        await client.query(`DELETE FROM ${this.table.message} WHERE (session_id, id) IN (SELECT * FROM unnest($1::text[], $2::text[]))`, keys);
      }
      if (batch.removeParts.length) {
        const r = batch.removeParts;
        await client.query(
          `DELETE FROM ${this.table.part} WHERE (session_id, message_id, id) IN (SELECT * FROM unnest($1::text[], $2::text[], $3::text[]))`,
          [r.map((k) => k.sessionID), r.map((k) => k.messageID), r.map((k) => k.partID)],
        );
      }
    });
  }

  async getSession(sessionID: string): Promise<Session | undefined> {
    const { rows } = await this.query<{ data: string }>(`SELECT data FROM ${this.table.session} WHERE id = $1`, [sessionID]);
    return rows[0] ? (JSON.parse(rows[0].data) as Session) : undefined;
  }

  async listSessions(query: SessionQuery = {}): Promise<SessionPage> {
    const limit = pageLimit(query);
    const where: string[] = [];
    const params: unknown[] = [];
    if (query.parentID !== undefined) {
      params.push(query.parentID);
      where.push(`parent_id = $${params.length}`);
    } else if (query.rootsOnly) where.push("parent_id IS NULL");
    if (query.cursor !== undefined) {
      params.push(query.cursor);
      where.push(`id > $${params.length}`);
    }
    params.push(limit + 1);
    const { rows } = await this.query<{ data: string }>(
      `SELECT data FROM ${this.table.session} ${where.length ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY id LIMIT $${params.length}`,
      params,
    );
    const sessions = rows.slice(0, limit).map((r) => JSON.parse(r.data) as Session);
    const last = sessions[sessions.length - 1];
    return rows.length > limit && last ? { sessions, cursor: last.id } : { sessions };
  }

  async removeSession(sessionID: string): Promise<void> {
    await this.transaction(async (client) => {
      for (const table of ["part", "message", "lease"] as const) await client.query(`DELETE FROM ${this.table[table]} WHERE session_id = $1`, [sessionID]);
      await client.query(`DELETE FROM ${this.table.session} WHERE id = $1`, [sessionID]);
    });
  }

  async getMessage(sessionID: string, messageID: string): Promise<MessageWithParts | undefined> {
    // One statement, so one snapshot: the message and its parts as of the same moment.
    const { rows } = await this.query<{ info: string | null; parts: string | null }>(
      `SELECT (SELECT data FROM ${this.table.message} WHERE session_id = $1 AND id = $2) AS info,
              (SELECT '[' || string_agg(data, ',' ORDER BY id) || ']' FROM ${this.table.part} WHERE session_id = $1 AND message_id = $2) AS parts`,
      [sessionID, messageID],
    );
    const row = rows[0];
    return row?.info ? { info: JSON.parse(row.info) as Message, parts: parseList<Part>(row.parts) } : undefined;
  }

  async listMessages(sessionID: string): Promise<MessageWithParts[]> {
    // Each list as one JSON text: one value over the wire and one parse, not a row and a parse per record.
    const { rows } = await this.query<{ messages: string | null; parts: string | null }>(
      `SELECT (SELECT '[' || string_agg(data, ',' ORDER BY id) || ']' FROM ${this.table.message} WHERE session_id = $1) AS messages,
              (SELECT '[' || string_agg(data, ',' ORDER BY message_id, id) || ']' FROM ${this.table.part} WHERE session_id = $1) AS parts`,
      [sessionID],
    );
    const result = parseList<Message>(rows[0]?.messages ?? null).map((info) => ({ info, parts: [] as Part[] }));
    const byId = new Map(result.map((m) => [m.info.id, m.parts]));
    for (const part of parseList<Part>(rows[0]?.parts ?? null)) byId.get(part.messageID)?.push(part);
    return result;
  }

  async acquireLease(sessionID: string, owner: string, ttlMs: number): Promise<Lease | undefined> {
    const { rows } = await this.query<{ expires_at: string }>(
      `INSERT INTO ${this.table.lease} AS lease (session_id, owner, expires_at) VALUES ($1, $2, ${NOW_MS} + $3)
       ON CONFLICT (session_id) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at
       WHERE lease.owner = excluded.owner OR lease.expires_at <= ${NOW_MS}
       RETURNING expires_at`,
      [sessionID, owner, Math.round(ttlMs)],
    );
    return rows[0] ? { sessionID, owner, expiresAt: Number(rows[0].expires_at) } : undefined;
  }

  async renewLease(sessionID: string, owner: string, ttlMs: number): Promise<Lease | undefined> {
    const { rows } = await this.query<{ expires_at: string }>(
      `UPDATE ${this.table.lease} SET expires_at = ${NOW_MS} + $3 WHERE session_id = $1 AND owner = $2 RETURNING expires_at`,
      [sessionID, owner, Math.round(ttlMs)],
    );
    return rows[0] ? { sessionID, owner, expiresAt: Number(rows[0].expires_at) } : undefined;
  }

  async releaseLease(sessionID: string, owner: string): Promise<void> {
    await this.query(`DELETE FROM ${this.table.lease} WHERE session_id = $1 AND owner = $2`, [sessionID, owner]);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.ready.catch(() => {});
    if (this.ownsPool) await this.pool.end();
  }

  /** Runs `fn` on one pooled connection. */
  private async withClient<T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      return await fn(client);
    } finally {
      client.release();
    }
  }

  private async query<R extends pg.QueryResultRow>(text: string, params: unknown[]): Promise<pg.QueryResult<R>> {
    await this.ready;
    return this.pool.query<R>(text, params);
  }

  private async transaction(fn: (client: pg.PoolClient) => Promise<void>): Promise<void> {
    await this.ready;
    await this.withClient(async (client) => {
      await client.query("BEGIN");
      try {
        await fn(client);
        await client.query("COMMIT");
      } catch (error) {
        await client.query("ROLLBACK").catch(() => {});
        throw error;
      }
    });
  }
}
