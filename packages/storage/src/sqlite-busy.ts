const SQLITE_BUSY = 5;
const SQLITE_LOCKED = 6;

/**
 * Runs `open` again while SQLite answers "database is locked", for up to `timeoutMs`. The busy
 * timeout covers ordinary waits, but not all: two processes creating the same new database at once
 * (the first switching it to WAL, the other reading its header mid-switch) get SQLITE_BUSY at once.
 */
export function whileBusy<T>(timeoutMs: number, open: () => T): T {
  const deadline = Date.now() + timeoutMs;
  for (let delay = 5; ; delay = Math.min(delay * 2, 100)) {
    try {
      return open();
    } catch (error) {
      const code = Number((error as { errcode?: unknown }).errcode) & 0xff;
      if ((code !== SQLITE_BUSY && code !== SQLITE_LOCKED) || Date.now() + delay > deadline) throw error;
      // The constructor is synchronous: wait without spinning.
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, delay);
    }
  }
}

