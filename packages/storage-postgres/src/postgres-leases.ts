import { holderIsGone, leaseFromRow, thisProcess, type Lease, type LeaseRow } from "@lathe/storage";
import type pg from "pg";

/** The database's clock in ms since epoch: lease expiries are judged by one clock for every worker. */
const NOW_MS = "(extract(epoch from clock_timestamp()) * 1000)::bigint";

/** Runs one statement (on the storage's pool, once its schema is ready). */
type Query = <R extends pg.QueryResultRow>(text: string, params: unknown[]) => Promise<pg.QueryResult<R>>;

/**
 * Session leases as rows of `table`: taken atomically with `INSERT … ON CONFLICT … WHERE expired OR
 * same owner`, judged by the database's clock, and recording the holder's host and pid so that a
 * holder on this host whose process is gone is taken over at once (compare-and-swap on the lease
 * that was judged, so two workers cannot both take it).
 */
export class PostgresLeases {
  private readonly table: string;
  private readonly query: Query;

  /** Leases in `table` (schema-qualified), reached through `query`. */
  constructor(table: string, query: Query) {
    this.table = table;
    this.query = query;
  }

  async acquire(sessionID: string, owner: string, ttlMs: number): Promise<Lease | undefined> {
    const { host, pid } = thisProcess();
    const { rows } = await this.query<LeaseRow>(
      `INSERT INTO ${this.table} AS lease (session_id, owner, expires_at, host, pid) VALUES ($1, $2, ${NOW_MS} + $3, $4, $5)
       ON CONFLICT (session_id) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at, host = excluded.host, pid = excluded.pid
       WHERE lease.owner = excluded.owner OR lease.expires_at <= ${NOW_MS}
       RETURNING owner, expires_at, host, pid`,
      [sessionID, owner, Math.round(ttlMs), host, pid],
    );
    if (rows[0]) return leaseFromRow(sessionID, rows[0]);
    // Held by another owner: take it over only from a process on this host that is gone, and only
    // if it is still the lease we judged (another worker may have taken it over meanwhile).
    const held = await this.get(sessionID);
    if (!held || !holderIsGone(held)) return undefined;
    const taken = await this.query<LeaseRow>(
      `UPDATE ${this.table} SET owner = $2, expires_at = ${NOW_MS} + $3, host = $4, pid = $5
       WHERE session_id = $1 AND owner = $6 AND expires_at = $7
       RETURNING owner, expires_at, host, pid`,
      [sessionID, owner, Math.round(ttlMs), host, pid, held.owner, held.expiresAt],
    );
    return taken.rows[0] ? leaseFromRow(sessionID, taken.rows[0]) : undefined;
  }

  async get(sessionID: string): Promise<Lease | undefined> {
    const { rows } = await this.query<LeaseRow>(
      `SELECT owner, expires_at, host, pid FROM ${this.table} WHERE session_id = $1 AND expires_at > ${NOW_MS}`,
      [sessionID],
    );
    return rows[0] ? leaseFromRow(sessionID, rows[0]) : undefined;
  }

  async renew(sessionID: string, owner: string, ttlMs: number): Promise<Lease | undefined> {
    const { rows } = await this.query<LeaseRow>(
      `UPDATE ${this.table} SET expires_at = ${NOW_MS} + $3 WHERE session_id = $1 AND owner = $2 RETURNING owner, expires_at, host, pid`,
      [sessionID, owner, Math.round(ttlMs)],
    );
    return rows[0] ? leaseFromRow(sessionID, rows[0]) : undefined;
  }

  async release(sessionID: string, owner: string): Promise<void> {
    await this.query(`DELETE FROM ${this.table} WHERE session_id = $1 AND owner = $2`, [sessionID, owner]);
  }
}
