import { hostname } from "node:os";

/**
 * Whether a process with this id runs on this host. A process we may not signal (`EPERM`) exists;
 * only "no such process" (`ESRCH`) says it is gone.
 */
export function isProcessAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** This machine's name, as a lease records it: a holder is judged alive or dead only on its own host. */
export const thisHost = (): string => hostname();

/** The host and pid a lease records for the calling process. */
export const thisProcess = (): { host: string; pid: number } => ({ host: thisHost(), pid: process.pid });

/**
 * Whether a lease's holder is known to be gone: a process on this host that no longer runs. A holder
 * on another host (or one recorded without host and pid) cannot be checked and holds until expiry.
 */
export function holderIsGone(holder: { host?: string | null; pid?: number | null }): boolean {
  return holder.host === thisHost() && typeof holder.pid === "number" && !isProcessAlive(holder.pid);
}
