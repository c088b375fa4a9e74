import type { Message, MessageWithParts, Part, Session } from "@lathe/message";
import {
  CorruptRecordError,
  keepIntact,
  pageLimit,
  parseJoinedRecords,
  parseStoredRecord,
  StorageOpenError,
  StorageVersionError,
  validateBatch,
  warnCorruptRecord,
  type CorruptRecordHandler,
  type Lease,
  type SessionPage,
  type SessionQuery,
  type Storage,
  type WriteBatch,
} from "@lathe/storage";
import pg from "pg";
import { PostgresLeases } from "./postgres-leases.js";
import { migratePostgres } from "./postgres-migrations.js";
import { MIGRATIONS, POSTGRES_STORAGE_SCHEMA_VERSION } from "./postgres-schema.js";

export { POSTGRES_STORAGE_SCHEMA_VERSION };

/** How to reach the database: a connection string (the storage makes and ends its own pool) or your pool. */
export type PostgresStorageOptions = ({ connectionString: string; pool?: never } | { pool: pg.Pool; connectionString?: never }) & {
  /**
   * The PostgreSQL schema the tables live in, created if missing; default `"lathe"`. Letters, digits
   * and `_` only. Workers that share sessions use the same schema.
   */
  schema?: string;
  /**
   * Called for each damaged row a read skips (a session in `listSessions`, a message or part in
   * `listMessages`/`getMessage`). Damaged rows are never rewritten. Default: a process warning.
   */
  onCorrupt?: CorruptRecordHandler;
};

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

type Row = { message_id?: string; id: string; data: string };
/** Where a database is, for errors: host, port and database from the connection string, never the password. */
function describeTarget(connectionString: string | undefined, schema: string): string {
  let target = "a host-supplied pool";
  if (connectionString) {
    try {
      const url = new URL(connectionString);
      target = `postgres://${url.hostname || "localhost"}${url.port ? `:${url.port}` : ""}${url.pathname}`;
    } catch {
      target = "an unparsable connection string";
    }
  }
  return `PostgreSQL schema "${schema}" at ${target}`;
}

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
  private readonly onCorrupt: CorruptRecordHandler;
  private readonly leases: PostgresLeases;
  /** Where the data is, in words, for errors. */
  private readonly location: string;
  private closed = false;

  constructor(options: PostgresStorageOptions) {
    const schema = options.schema ?? "lathe";
    if (!/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(schema)) throw new TypeError(`invalid PostgreSQL schema name ${JSON.stringify(schema)}`);
    this.schema = schema;
    this.onCorrupt = options.onCorrupt ?? warnCorruptRecord;
    this.location = describeTarget(options.connectionString, schema);
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
    this.leases = new PostgresLeases(this.table.lease, (text, params) => this.query(text, params));
    this.ready = this.withClient(async (client) => {
      const version = await migratePostgres(client, schema, MIGRATIONS);
      await this.reportOrphanParts(client);
      return version;
    }).catch((error: unknown) => {
      throw error instanceof StorageVersionError ? error : new StorageOpenError(this.location, error);
    });
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
    return rows[0] ? this.parseSession(sessionID, rows[0].data) : undefined;
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
    const { rows } = await this.query<{ id: string; data: string }>(
      `SELECT id, data FROM ${this.table.session} ${where.length ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY id LIMIT $${params.length}`,
      params,
    );
    const page = rows.slice(0, limit);
    const sessions = keepIntact(page, (r) => this.parseSession(r.id, r.data), this.onCorrupt);
    // The cursor is the last row's id, damaged or not, so paging goes on past a damaged session.
    const last = page[page.length - 1];
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
    const { rows } = await this.query<{ info: string | null; parts: string | null; keys: string | null }>(
      `SELECT (SELECT data FROM ${this.table.message} WHERE session_id = $1 AND id = $2) AS info,
              (SELECT '[' || string_agg(data, ',' ORDER BY id) || ']' FROM ${this.table.part} WHERE session_id = $1 AND message_id = $2) AS parts,
              (SELECT string_agg(message_id || chr(31) || id, chr(30) ORDER BY id) FROM ${this.table.part} WHERE session_id = $1 AND message_id = $2) AS keys`,
      [sessionID, messageID],
    );
    const row = rows[0];
    if (row?.info == null) return undefined;
    const info = parseStoredRecord<Message>(row.info, { id: messageID, sessionID }, this.where("message", sessionID, messageID));
    const parts =
      parseJoinedRecords<Part>(row.parts, row.keys, sessionID, ["messageID", "id"]) ??
      (await this.partsRowByRow(sessionID, `WHERE session_id = $1 AND message_id = $2 ORDER BY id`, [sessionID, messageID]));
    return { info, parts };
  }

  async listMessages(sessionID: string): Promise<MessageWithParts[]> {
    // Each list as one JSON text: one value over the wire and one parse, not a row and a parse per record.
    // With their keys, to check them against: only a damaged row makes it read row by row.
    const { rows } = await this.query<Record<"messages" | "messageKeys" | "parts" | "partKeys", string | null>>(
      `SELECT (SELECT '[' || string_agg(data, ',' ORDER BY id) || ']' FROM ${this.table.message} WHERE session_id = $1) AS messages,
              (SELECT string_agg(id, chr(30) ORDER BY id) FROM ${this.table.message} WHERE session_id = $1) AS "messageKeys",
              (SELECT '[' || string_agg(data, ',' ORDER BY message_id, id) || ']' FROM ${this.table.part} WHERE session_id = $1) AS parts,
              (SELECT string_agg(message_id || chr(31) || id, chr(30) ORDER BY message_id, id) FROM ${this.table.part} WHERE session_id = $1) AS "partKeys"`,
      [sessionID],
    );
    const row = rows[0];
    const messages =
      parseJoinedRecords<Message>(row?.messages ?? null, row?.messageKeys ?? null, sessionID, ["id"]) ??
      (await this.messagesRowByRow(sessionID));
    const parts =
      parseJoinedRecords<Part>(row?.parts ?? null, row?.partKeys ?? null, sessionID, ["messageID", "id"]) ??
      (await this.partsRowByRow(sessionID, "WHERE session_id = $1 ORDER BY message_id, id", [sessionID]));
    const result = messages.map((info) => ({ info, parts: [] as Part[] }));
    const byId = new Map(result.map((m) => [m.info.id, m.parts]));
    for (const part of parts) byId.get(part.messageID)?.push(part);
    return result;
  }

  acquireLease(sessionID: string, owner: string, ttlMs: number): Promise<Lease | undefined> {
    return this.leases.acquire(sessionID, owner, ttlMs);
  }

  getLease(sessionID: string): Promise<Lease | undefined> {
    return this.leases.get(sessionID);
  }

  renewLease(sessionID: string, owner: string, ttlMs: number): Promise<Lease | undefined> {
    return this.leases.renew(sessionID, owner, ttlMs);
  }

  releaseLease(sessionID: string, owner: string): Promise<void> {
    return this.leases.release(sessionID, owner);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.ready.catch(() => {});
    if (this.ownsPool) await this.pool.end();
  }

  private parseSession(id: string, data: string): Session {
    return parseStoredRecord<Session>(data, { id }, this.where("session", id));
  }

  private async messagesRowByRow(sessionID: string): Promise<Message[]> {
    const { rows } = await this.query<Row>(`SELECT id, data FROM ${this.table.message} WHERE session_id = $1 ORDER BY id`, [sessionID]);
    return keepIntact(rows, (r) => parseStoredRecord<Message>(r.data, { id: r.id, sessionID }, this.where("message", sessionID, r.id)), this.onCorrupt);
  }

  private async partsRowByRow(sessionID: string, filter: string, params: unknown[]): Promise<Part[]> {
    const { rows } = await this.query<Required<Row>>(`SELECT message_id, id, data FROM ${this.table.part} ${filter}`, params);
    return keepIntact(
      rows,
      (r) => parseStoredRecord<Part>(r.data, { id: r.id, sessionID, messageID: r.message_id }, this.where("part", sessionID, r.message_id, r.id)),
      this.onCorrupt,
    );
  }

  /**
   * Reports parts whose message is not stored. A batch may write parts before their message, so
   * they are left as they are (invisible to reads until the message comes).
   */
  private async reportOrphanParts(client: pg.PoolClient): Promise<void> {
    const { rows } = await client.query<{ session_id: string; message_id: string; n: string }>(
      `SELECT session_id, message_id, count(*) AS n FROM ${this.table.part} AS part
       WHERE NOT EXISTS (SELECT 1 FROM ${this.table.message} AS message WHERE message.session_id = part.session_id AND message.id = part.message_id)
       GROUP BY session_id, message_id`,
    );
    for (const o of rows) {
      this.onCorrupt(new CorruptRecordError(this.where("part", o.session_id, o.message_id), new Error(`${o.n} part(s) whose message is not stored`)));
    }
  }

  private where(table: string, ...key: string[]) {
    return { table: `"${this.schema}".${table}`, key: key.join("/") };
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
