// Serialises the snapshot operations on one shadow repository.
//
// Why both an in-process queue and a lock file: git's own index.lock only keeps a single command
// from clobbering another's index write (the loser fails, it does not wait), while one snapshot
// operation is several commands (list, stage, write-tree, diff, checkout) that must not interleave
// with another agent's. Agents of one process queue on a promise chain keyed by the repository path
// (a lock, not shared state: it holds nothing but the tail of the queue and empties itself); the
// head of the queue then takes a lock file in the repository so agents in other processes sharing
// the data directory wait too. A lock left by a crashed process is taken over once its pid is gone
// (same host) or it is older than `staleMs`.
import { isProcessAlive } from "@lathe/storage";
import { link, mkdir, readFile, stat, unlink, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { SnapshotLockTimeoutError } from "./errors.js";

/** The lock file's name inside the shadow repository. */
export const LOCK_FILE = "lathe-snapshot.lock";

/** Timing of the cross-process lock. */
export interface LockTiming {
  /** Give up waiting after this long (ms). */
  timeoutMs: number;
  /** A lock older than this (ms) is treated as abandoned even if its owner seems alive. */
  staleMs: number;
}

const DEFAULT_TIMING: LockTiming = { timeoutMs: 120_000, staleMs: 10 * 60_000 };
/** An empty lock file (left by a writer from before locks were linked into place whole) older than this is abandoned. */
const EMPTY_LOCK_GRACE_MS = 5_000;
const POLL_MS = 20;

/** Tail of the operation queue of each repository in this process. */
const queues = new Map<string, Promise<unknown>>();

/** Runs `operation` when every earlier operation on `gitDir` (this process or another) has finished. */
export function withRepositoryLock<T>(gitDir: string, operation: () => Promise<T>, timing: LockTiming = DEFAULT_TIMING): Promise<T> {
  const previous = queues.get(gitDir) ?? Promise.resolve();
  const run = previous.then(
    () => holdingLockFile(gitDir, operation, timing),
    () => holdingLockFile(gitDir, operation, timing),
  );
  const tail = run.catch(() => undefined);
  queues.set(gitDir, tail);
  // The last operation out removes the entry, so the map only holds repositories in use.
  void tail.then(() => {
    if (queues.get(gitDir) === tail) queues.delete(gitDir);
  });
  return run;
}

/** Number of repositories with queued operations in this process (for tests). */
export function queuedRepositories(): number {
  return queues.size;
}

async function holdingLockFile<T>(gitDir: string, operation: () => Promise<T>, timing: LockTiming): Promise<T> {
  const lockPath = join(gitDir, LOCK_FILE);
  await mkdir(gitDir, { recursive: true });
  await acquire(lockPath, timing);
  try {
    return await operation();
  } finally {
    await unlink(lockPath).catch(() => undefined);
  }
}

async function acquire(lockPath: string, timing: LockTiming): Promise<void> {
  const started = Date.now();
  const owner = `${process.pid} ${hostname()} ${started}`;
  // The lock is written to a private file first and hard-linked into place: `link` fails with EEXIST
  // when the lock exists, and a lock never exists without its owner line — a process killed between
  // creating and writing it would otherwise leave an empty lock nobody can judge.
  const draft = `${lockPath}.${process.pid}.${started}.${Math.random().toString(36).slice(2)}`;
  await writeFile(draft, owner);
  try {
    for (;;) {
      try {
        await link(draft, lockPath);
        return;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      }
      await removeIfAbandoned(lockPath, timing.staleMs);
      const waited = Date.now() - started;
      if (waited >= timing.timeoutMs) throw new SnapshotLockTimeoutError(lockPath, waited);
      await sleep(POLL_MS);
    }
  } finally {
    await unlink(draft).catch(() => undefined);
  }
}

async function removeIfAbandoned(lockPath: string, staleMs: number): Promise<void> {
  const [content, info] = await Promise.all([readFile(lockPath, "utf8").catch(() => undefined), stat(lockPath).catch(() => undefined)]);
  if (content === undefined || info === undefined) return;
  const [pid, host] = content.split(" ");
  // Locks are linked into place whole, so an empty one is a leftover of an older writer: abandoned
  // once it is a few seconds old.
  const empty = content.trim() === "" && Date.now() - info.mtimeMs > EMPTY_LOCK_GRACE_MS;
  const ownerGone = empty || (host === hostname() && pid !== undefined && pid !== "" && !isProcessAlive(Number(pid)));
  if (!ownerGone && Date.now() - info.mtimeMs < staleMs) return;
  // Only remove the lock we judged: another waiter may have replaced it in the meantime.
  if ((await readFile(lockPath, "utf8").catch(() => undefined)) === content) await unlink(lockPath).catch(() => undefined);
}
