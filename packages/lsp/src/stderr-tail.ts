/** The last lines of captured output, on one line, for a note to the model. */
export function lastLines(text: string, lines = 3): string {
  return text.trim().split("\n").slice(-lines).join(" | ").slice(-400);
}

/** The last few KB a process wrote to stderr: kept for error notes, never printed. */
export class StderrTail {
  private chunks: Buffer[] = [];
  private size = 0;

  constructor(private readonly limit = 4096) {}

  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.size += chunk.length;
    while (this.size > this.limit && this.chunks.length > 1) this.size -= this.chunks.shift()!.length;
  }

  /** The captured text, trimmed to the limit and to whole lines where it can. */
  text(): string {
    const all = Buffer.concat(this.chunks).toString("utf8");
    const cut = all.length > this.limit ? all.slice(-this.limit) : all;
    return cut.trim();
  }
}
