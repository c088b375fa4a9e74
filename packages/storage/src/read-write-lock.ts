/**
 * Many readers or one writer at a time, in arrival order (a writer waits for the readers before
 * it, and readers after a waiting writer wait for it), so a reader never sees half a write.
 */
export class ReadWriteLock {
  private readers = 0;
  private writing = false;
  private readonly queue: Array<{ write: boolean; start: () => void }> = [];

  /** Runs `fn` alongside other readers, never alongside a writer. */
  read<T>(fn: () => Promise<T>): Promise<T> {
    return this.run(false, fn);
  }

  /** Runs `fn` alone. */
  write<T>(fn: () => Promise<T>): Promise<T> {
    return this.run(true, fn);
  }

  private async run<T>(write: boolean, fn: () => Promise<T>): Promise<T> {
    await new Promise<void>((start) => {
      this.queue.push({ write, start });
      this.pump();
    });
    try {
      return await fn();
    } finally {
      if (write) this.writing = false;
      else this.readers--;
      this.pump();
    }
  }

  private pump(): void {
    while (this.queue.length > 0 && !this.writing) {
      const next = this.queue[0]!;
      if (next.write && this.readers > 0) return;
      this.queue.shift();
      if (next.write) this.writing = true;
      else this.readers++;
      next.start();
      if (next.write) return;
    }
  }
}
