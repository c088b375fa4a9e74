import type { Lease } from "./storage.js";

/** A lease as SQL adapters keep it: one row per session (`expires_at` as the driver returns a bigint). */
export type LeaseRow = { owner: string; expires_at: number | string; host: string | null; pid: number | null };

/** The {@link Lease} a lease row stands for; a holder recorded without host or pid (an older row) leaves them out. */
export function leaseFromRow(sessionID: string, row: LeaseRow): Lease {
  return {
    sessionID,
    owner: row.owner,
    expiresAt: Number(row.expires_at),
    ...(row.host !== null ? { host: row.host } : {}),
    ...(row.pid !== null ? { pid: Number(row.pid) } : {}),
  };
}
