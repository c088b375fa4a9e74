import { randomBytes } from "node:crypto";
import { link, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { readJson, syncDir, tempPath, writeFileAtomic } from "./atomic-file.js";
import { StorageLockTimeoutError } from "./errors.js";
import { holderIsGone, isProcessAlive, thisProcess } from "./process-alive.js";
import type { Lease } from "./storage.js";

interface LockRecord {
  pid: number;
  nonce: string;
  time: number;
}

interface LeaseRecord {
  owner: string;
  expiresAt: number;
  host?: string;
  pid?: number;
}

/** How long a lease operation waits for another process's lock on the same session. */
const LOCK_WAIT_MS = 10_000;
/** A lock older than this belongs to a process that hung or died on another host: break it. */
const LOCK_STALE_MS = 30_000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Session leases as files, `<dir>/<sessionID>.json` = `{ owner, expiresAt, host, pid }`, safe between
 * processes: every read-modify-write of a lease happens under `<sessionID>.lock`, a file created
 * atomically (a complete temp file hard-linked into place, which fails if the lock exists). A lock
 * left by a dead process (or older than 30 s) is broken.
 */
export class FileLeases {
  private readonly dir: string;

  constructor(dir: string) {
    this.dir = dir;
  }

  async acquire(sessionID: string, owner: string, ttlMs: number): Promise<Lease | undefined> {
    return this.locked(sessionID, async () => {
      const held = await this.read(sessionID);
      if (held && held.owner !== owner && held.expiresAt > Date.now() && !holderIsGone(held)) return undefined;
      return this.store(sessionID, owner, ttlMs, thisProcess());
    });
  }

  async renew(sessionID: string, owner: string, ttlMs: number): Promise<Lease | undefined> {
    return this.locked(sessionID, async () => {
      const held = await this.read(sessionID);
      return held?.owner === owner ? this.store(sessionID, owner, ttlMs, { host: held.host, pid: held.pid }) : undefined;
    });
  }

  async release(sessionID: string, owner: string): Promise<void> {
    await this.locked(sessionID, async () => {
      if ((await this.read(sessionID))?.owner === owner) await this.drop(sessionID);
    });
  }

  /** The unexpired lease of the session, if any (read without the lock: the file is replaced whole). */
  async get(sessionID: string): Promise<Lease | undefined> {
    const held = await this.read(sessionID);
    return held && held.expiresAt > Date.now() ? { sessionID, ...held } : undefined;
  }

  /** Drops the lease whoever holds it (the session is being removed). */
  async remove(sessionID: string): Promise<void> {
    await this.locked(sessionID, () => this.drop(sessionID));
  }

  private async read(sessionID: string): Promise<LeaseRecord | undefined> {
    return (await readJson(join(this.dir, `${sessionID}.json`))) as LeaseRecord | undefined;
  }

  private async store(sessionID: string, owner: string, ttlMs: number, holder: { host?: string; pid?: number }): Promise<Lease> {
    const record: LeaseRecord = { owner, expiresAt: Date.now() + ttlMs, ...holder };
    await writeFileAtomic(join(this.dir, `${sessionID}.json`), JSON.stringify(record));
    await syncDir(this.dir);
    return { sessionID, ...record };
  }

  private async drop(sessionID: string): Promise<void> {
    await rm(join(this.dir, `${sessionID}.json`), { force: true });
    await syncDir(this.dir);
  }

  private async locked<T>(sessionID: string, fn: () => Promise<T>): Promise<T> {
    const lock = join(this.dir, `${sessionID}.lock`);
    const record: LockRecord = { pid: process.pid, nonce: randomBytes(8).toString("hex"), time: Date.now() };
    const temp = tempPath(lock);
    await writeFile(temp, JSON.stringify(record));
    try {
      const started = Date.now();
      for (let attempt = 0; !(await this.tryLink(temp, lock)); attempt++) {
        if (await this.breakIfStale(lock)) continue;
        if (Date.now() - started > LOCK_WAIT_MS) throw new StorageLockTimeoutError(lock, Date.now() - started);
        await sleep(Math.min(2 ** attempt, 20) * (0.5 + Math.random()));
      }
    } finally {
      await rm(temp, { force: true });
    }
    try {
      return await fn();
    } finally {
      await rm(lock, { force: true });
    }
  }

  private async tryLink(from: string, to: string): Promise<boolean> {
    try {
      await link(from, to);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
      throw error;
    }
  }

  /** Removes the lock if its holder is gone; true when the caller should retry at once. */
  private async breakIfStale(lock: string): Promise<boolean> {
    const seen = await this.readLock(lock);
    if (seen === "missing") return true; // released meanwhile
    const stale = seen.pid !== process.pid && (!isProcessAlive(seen.pid) || Date.now() - seen.time > LOCK_STALE_MS);
    if (!stale) return false;
    // Move it aside, and put it back if what we moved is not the lock we judged stale (another
    // process broke that one and took the lock in between).
    const aside = tempPath(lock);
    try {
      await rename(lock, aside);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return true;
      throw error;
    }
    const moved = await this.readLock(aside);
    if (moved === "missing" || moved.nonce !== seen.nonce) await this.tryLink(aside, lock).catch(() => false);
    await rm(aside, { force: true });
    return true;
  }

  /** The lock's holder; an unreadable lock (never made by this code: locks are linked in whole) counts as a dead one. */
  private async readLock(path: string): Promise<LockRecord | "missing"> {
    let text: string;
    try {
      text = await readFile(path, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return "missing";
      throw error;
    }
    try {
      const record = JSON.parse(text) as LockRecord;
      if (Number.isInteger(record.pid) && record.pid > 0 && typeof record.time === "number") return record;
    } catch {
      // fall through
    }
    return { pid: 0, nonce: text, time: 0 };
  }
}
