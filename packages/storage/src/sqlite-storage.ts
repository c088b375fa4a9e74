import type { Message, MessageWithParts, Part, Session } from "@lathe/message";
import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type { DatabaseSync, SQLInputValue, StatementSync } from "node:sqlite";
import { CorruptRecordError, StorageOpenError, warnCorruptRecord, type CorruptRecordHandler } from "./errors.js";
import { leaseFromRow, type LeaseRow } from "./lease-row.js";
import { latestVersion, type Migration } from "./migrations.js";
import { holderIsGone, thisProcess } from "./process-alive.js";
import { pageLimit } from "./session-query.js";
import { immediateTransaction, migrateSqlite } from "./sqlite-migrations.js";
import type { Lease, SessionPage, SessionQuery, Storage } from "./storage.js";
import { keepIntact, parseJoinedRecords, parseStoredRecord } from "./stored-record.js";
import { validateBatch, type WriteBatch } from "./write-batch.js";
import { whileBusy } from "./sqlite-busy.js";
import { loadSqlite } from "./load-sqlite.js";

/** The schema, one step per version. Records are JSON text; the columns beside it are for lookups. */
const MIGRATIONS: Array<Migration<DatabaseSync>> = [
  {
    version: 1,
    description: "session, message, part and lease tables",
    up(db) {
      db.exec(`
        CREATE TABLE session (id TEXT PRIMARY KEY, parent_id TEXT, data TEXT NOT NULL) WITHOUT ROWID;
        CREATE INDEX session_parent ON session (parent_id, id);
        CREATE TABLE message (
          session_id TEXT NOT NULL, id TEXT NOT NULL, data TEXT NOT NULL,
          PRIMARY KEY (session_id, id)
        ) WITHOUT ROWID;
        CREATE TABLE part (
          session_id TEXT NOT NULL, message_id TEXT NOT NULL, id TEXT NOT NULL, data TEXT NOT NULL,
          PRIMARY KEY (session_id, message_id, id)
        ) WITHOUT ROWID;
        CREATE TABLE lease (session_id TEXT PRIMARY KEY, owner TEXT NOT NULL, expires_at INTEGER NOT NULL) WITHOUT ROWID;
      `);
    },
  },
  {
    version: 2,
    description: "lease holder's host and pid",
    up(db) {
      db.exec("ALTER TABLE lease ADD COLUMN host TEXT; ALTER TABLE lease ADD COLUMN pid INTEGER;");
    },
  },
];

type PartRow = { message_id: string; id: string; data: string };
type JoinedParts = { list: string | null; keys: string | null };

/** The parts' keys in `order`, as one text (see `parseJoinedRecords`), checked against the joined data. */
const PART_FIELDS = ["messageID", "id"] as const;
const PART_KEYS = (order: string) => `group_concat(message_id || char(31) || id, char(30) ORDER BY ${order})`;

/** The schema version {@link SqliteStorage} writes, kept in the `schema_version` table. */
export const SQLITE_STORAGE_SCHEMA_VERSION = latestVersion(MIGRATIONS);

/** Options of {@link SqliteStorage}. */
export interface SqliteStorageOptions {
  /** How long a statement waits for another process's write lock before failing; default 5,000 ms. */
  busyTimeoutMs?: number;
  /**
   * SQLite's `synchronous` setting. `"normal"` (default): in WAL mode a process crash never loses a
   * committed batch; a power loss may lose the last few but never corrupts. `"full"`: fsync on every
   * commit, so not even a power loss loses a committed batch.
   */
  synchronous?: "normal" | "full";
  /**
   * Called for each damaged row a read skips (a session in `listSessions`, a message or part in
   * `listMessages`/`getMessage`) and, on open, for parts whose message is not stored. Damaged rows
   * are never rewritten. Default: a process warning.
   */
  onCorrupt?: CorruptRecordHandler;
}

/** SQLite's words for a file that is not a database (or a damaged one). */
const NOT_A_DATABASE = /file is not a database|database disk image is malformed|file is encrypted/i;

/** Opens the database file, creating its folder; errors name the path. */
function openDatabase(path: string, options: SqliteStorageOptions): DatabaseSync {
  const { DatabaseSync } = loadSqlite();
  try {
    if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
    return new DatabaseSync(path, { timeout: options.busyTimeoutMs ?? 5_000 });
  } catch (error) {
    throw new StorageOpenError(path, error);
  }
}

/** An error met while opening, as one that names the file: a file that is no database is a {@link CorruptRecordError}. */
function openError(path: string, error: unknown): Error {
  if (error instanceof Error && error.name === "StorageVersionError") return error;
  if (error instanceof Error && NOT_A_DATABASE.test(error.message)) return new CorruptRecordError({ path }, error);
  return new StorageOpenError(path, error);
}

// node:sqlite is loaded on first use (see load-sqlite.ts), so importing @lathe/storage for its other
// adapters does not pay for it.

/**
 * Keeps sessions in one SQLite file with Node's built-in `node:sqlite` (no native addon): WAL
 * journal, a busy timeout, cached prepared statements, one transaction per `write` batch. Records are
 * stored as JSON; parts are keyed by (session, message, id), so a session loads in one index scan.
 * The lease is a row with an expiry, taken in a `BEGIN IMMEDIATE` transaction, so processes sharing
 * the file exclude each other. Opening the file creates or migrates its schema.
 */
export class SqliteStorage implements Storage {
  /** The database file (absolute), or `:memory:`. */
  readonly path: string;
  private readonly db: DatabaseSync;
  private readonly statements = new Map<string, StatementSync>();
  private readonly version: number;
  private readonly onCorrupt: CorruptRecordHandler;
  private closed = false;

  /**
   * Opens (creating it, its folder, or migrating it) the database at `path`; `":memory:"` for a
   * private one.
   *
   * @throws {@link CorruptRecordError} (with `path`) when the file is not a SQLite database;
   * {@link StorageOpenError} naming the path when it cannot be opened; `StorageVersionError` when a
   * newer Lathe wrote it.
   */
  constructor(path: string, options: SqliteStorageOptions = {}) {
    this.path = path === ":memory:" ? path : resolve(path);
    this.onCorrupt = options.onCorrupt ?? warnCorruptRecord;
    this.db = openDatabase(this.path, options);
    try {
      this.version = whileBusy(options.busyTimeoutMs ?? 5_000, () => {
        this.db.exec(`PRAGMA journal_mode = WAL; PRAGMA synchronous = ${options.synchronous === "full" ? "FULL" : "NORMAL"};`);
        return migrateSqlite(this.db, this.path, MIGRATIONS);
      });
    } catch (error) {
      this.db.close();
      throw openError(this.path, error);
    }
    this.reportOrphanParts();
  }

  async schemaVersion(): Promise<number> {
    return this.version;
  }

  async write(input: WriteBatch): Promise<void> {
    const batch = validateBatch(input);
    immediateTransaction(this.db, () => {
      const putPart = this.sql("INSERT OR REPLACE INTO part (session_id, message_id, id, data) VALUES (?, ?, ?, ?)");
      for (const p of batch.parts) putPart.run(p.sessionID, p.messageID, p.id, JSON.stringify(p));
      const putMessage = this.sql("INSERT OR REPLACE INTO message (session_id, id, data) VALUES (?, ?, ?)");
      for (const m of batch.messages) putMessage.run(m.sessionID, m.id, JSON.stringify(m));
      const putSession = this.sql("INSERT OR REPLACE INTO session (id, parent_id, data) VALUES (?, ?, ?)");
      for (const s of batch.sessions) putSession.run(s.id, s.parentID ?? null, JSON.stringify(s));
      for (const { sessionID, messageID } of batch.removeMessages) {
        this.sql("DELETE FROM part WHERE session_id = ? AND message_id = ?").run(sessionID, messageID);
        this.sql("DELETE FROM message WHERE session_id = ? AND id = ?").run(sessionID, messageID);
      }
      const removePart = this.sql("DELETE FROM part WHERE session_id = ? AND message_id = ? AND id = ?");
      for (const { sessionID, messageID, partID } of batch.removeParts) removePart.run(sessionID, messageID, partID);
    });
  }

  async getSession(sessionID: string): Promise<Session | undefined> {
    const row = this.sql("SELECT data FROM session WHERE id = ?").get(sessionID) as { data: string } | undefined;
    return row ? this.parseSession(sessionID, row.data) : undefined;
  }

  async listSessions(query: SessionQuery = {}): Promise<SessionPage> {
    const limit = pageLimit(query);
    const where: string[] = [];
    const params: SQLInputValue[] = [];
    if (query.parentID !== undefined) {
      where.push("parent_id = ?");
      params.push(query.parentID);
    } else if (query.rootsOnly) where.push("parent_id IS NULL");
    if (query.cursor !== undefined) {
      where.push("id > ?");
      params.push(query.cursor);
    }
    const sql = `SELECT id, data FROM session ${where.length ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY id LIMIT ?`;
    const rows = this.sql(sql).all(...params, limit + 1) as Array<{ id: string; data: string }>;
    const page = rows.slice(0, limit);
    const sessions = keepIntact(page, (r) => this.parseSession(r.id, r.data), this.onCorrupt);
    // The cursor is the last row's id, damaged or not, so paging goes on past a damaged session.
    const last = page[page.length - 1];
    return rows.length > limit && last ? { sessions, cursor: last.id } : { sessions };
  }

  async removeSession(sessionID: string): Promise<void> {
    immediateTransaction(this.db, () => {
      for (const table of ["part", "message", "lease"]) this.sql(`DELETE FROM ${table} WHERE session_id = ?`).run(sessionID);
      this.sql("DELETE FROM session WHERE id = ?").run(sessionID);
    });
  }

  async getMessage(sessionID: string, messageID: string): Promise<MessageWithParts | undefined> {
    return this.snapshot(() => {
      const row = this.sql("SELECT data FROM message WHERE session_id = ? AND id = ?").get(sessionID, messageID) as
        | { data: string }
        | undefined;
      if (!row) return undefined;
      const info = parseStoredRecord<Message>(row.data, { id: messageID, sessionID }, this.where("message", sessionID, messageID));
      const joined = this.sql(
        `SELECT '[' || group_concat(data, ',' ORDER BY id) || ']' AS list, ${PART_KEYS("id")} AS keys
         FROM part WHERE session_id = ? AND message_id = ?`,
      ).get(sessionID, messageID) as JoinedParts;
      const parts =
        parseJoinedRecords<Part>(joined.list, joined.keys, sessionID, PART_FIELDS) ??
        this.partsRowByRow(
          this.sql("SELECT message_id, id, data FROM part WHERE session_id = ? AND message_id = ? ORDER BY id").all(sessionID, messageID) as PartRow[],
          sessionID,
        );
      return { info, parts };
    });
  }

  async listMessages(sessionID: string): Promise<MessageWithParts[]> {
    return this.snapshot(() => {
      const messages = this.sql("SELECT id, data FROM message WHERE session_id = ? ORDER BY id").all(sessionID) as Array<{ id: string; data: string }>;
      if (messages.length === 0) return [];
      // One string and one JSON.parse for all parts: far cheaper than a row object and a parse each.
      // Only when that text is damaged are the parts read row by row, to keep the intact ones.
      const joined = this.sql(
        `SELECT '[' || group_concat(data, ',' ORDER BY message_id, id) || ']' AS list, ${PART_KEYS("message_id, id")} AS keys
         FROM part WHERE session_id = ?`,
      ).get(sessionID) as JoinedParts;
      const parts =
        parseJoinedRecords<Part>(joined.list, joined.keys, sessionID, PART_FIELDS) ??
        this.partsRowByRow(this.sql("SELECT message_id, id, data FROM part WHERE session_id = ? ORDER BY message_id, id").all(sessionID) as PartRow[], sessionID);
      const result = keepIntact(
        messages,
        (m) => ({ info: parseStoredRecord<Message>(m.data, { id: m.id, sessionID }, this.where("message", sessionID, m.id)), parts: [] as Part[] }),
        this.onCorrupt,
      );
      const byId = new Map(result.map((m) => [m.info.id, m.parts]));
      for (const part of parts) byId.get(part.messageID)?.push(part);
      return result;
    });
  }

  async acquireLease(sessionID: string, owner: string, ttlMs: number): Promise<Lease | undefined> {
    // Read and decide inside the write lock: whether the holder's process still runs is judged here.
    return immediateTransaction(this.db, () => {
      const now = Date.now();
      const held = this.sql("SELECT owner, expires_at, host, pid FROM lease WHERE session_id = ?").get(sessionID) as LeaseRow | undefined;
      if (held && held.owner !== owner && Number(held.expires_at) > now && !holderIsGone(held)) return undefined;
      const lease = { sessionID, owner, expiresAt: now + ttlMs, ...thisProcess() };
      this.sql("INSERT OR REPLACE INTO lease (session_id, owner, expires_at, host, pid) VALUES (?, ?, ?, ?, ?)").run(
        sessionID,
        owner,
        lease.expiresAt,
        lease.host,
        lease.pid,
      );
      return lease;
    });
  }

  async getLease(sessionID: string): Promise<Lease | undefined> {
    const held = this.sql("SELECT owner, expires_at, host, pid FROM lease WHERE session_id = ? AND expires_at > ?").get(sessionID, Date.now()) as
      | LeaseRow
      | undefined;
    return held ? leaseFromRow(sessionID, held) : undefined;
  }

  async renewLease(sessionID: string, owner: string, ttlMs: number): Promise<Lease | undefined> {
    const expiresAt = Date.now() + ttlMs;
    const renewed = this.sql("UPDATE lease SET expires_at = ? WHERE session_id = ? AND owner = ? RETURNING owner, expires_at, host, pid").get(
      expiresAt,
      sessionID,
      owner,
    ) as LeaseRow | undefined;
    return renewed ? leaseFromRow(sessionID, renewed) : undefined;
  }

  async releaseLease(sessionID: string, owner: string): Promise<void> {
    this.sql("DELETE FROM lease WHERE session_id = ? AND owner = ?").run(sessionID, owner);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.statements.clear();
    this.db.close();
  }

  private parseSession(id: string, data: string): Session {
    return parseStoredRecord<Session>(data, { id }, this.where("session", id));
  }

  /** Parts read one row at a time, the damaged ones reported and left out. */
  private partsRowByRow(rows: PartRow[], sessionID: string): Part[] {
    return keepIntact(
      rows,
      (r) => parseStoredRecord<Part>(r.data, { id: r.id, sessionID, messageID: r.message_id }, this.where("part", sessionID, r.message_id, r.id)),
      this.onCorrupt,
    );
  }

  private where(table: string, ...key: string[]) {
    return { path: this.path, table, key: key.join("/") };
  }

  /**
   * Reports parts whose message is not stored. A batch may write parts before their message, so
   * they are left as they are (invisible to reads until the message comes).
   */
  private reportOrphanParts(): void {
    const orphans = this.sql(
      `SELECT session_id, message_id, count(*) AS n FROM part
       WHERE NOT EXISTS (SELECT 1 FROM message WHERE message.session_id = part.session_id AND message.id = part.message_id)
       GROUP BY session_id, message_id`,
    ).all() as Array<{ session_id: string; message_id: string; n: number }>;
    for (const o of orphans) {
      this.onCorrupt(new CorruptRecordError(this.where("part", o.session_id, o.message_id), new Error(`${o.n} part(s) whose message is not stored`)));
    }
  }

  /** A prepared statement, prepared once per text. */
  private sql(text: string): StatementSync {
    let statement = this.statements.get(text);
    if (!statement) {
      statement = this.db.prepare(text);
      this.statements.set(text, statement);
    }
    return statement;
  }

  /** Runs reads in one read transaction, so another process's commit cannot fall between them. */
  private snapshot<T>(fn: () => T): T {
    this.db.exec("BEGIN");
    try {
      return fn();
    } finally {
      this.db.exec("COMMIT");
    }
  }
}
