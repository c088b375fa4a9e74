import { createWriteStream, type WriteStream } from "node:fs";
import type { ToolContext } from "../tool.js";
import { cutText, newOutputPath, truncateOutput, truncationNote, withNote, type TruncatedOutput, type TruncationLimits } from "../truncate.js";

/**
 * Collects a command's output as it streams. Up to `spillAt` bytes are kept in memory; past that,
 * everything goes to a file in the session's data directory and only the tail stays in memory, so a
 * command printing gigabytes costs a file, not memory. {@link OutputSpool.finish} keeps the end of
 * the output within the limits, with a note saying how much was cut and where the full text is.
 */
export class OutputSpool {
  private chunks: string[] = [];
  private memoryBytes = 0;
  private totalBytes = 0;
  private newlines = 0;
  private tail = "";
  private stream: WriteStream | undefined;
  private spilled: Promise<string> | undefined;
  private queued: string[] = [];

  constructor(
    private readonly ctx: Pick<ToolContext, "dataDir" | "sessionID">,
    private readonly limits: TruncationLimits,
    private readonly spillAt = 1024 * 1024,
  ) {}

  append(text: string): void {
    const bytes = Buffer.byteLength(text);
    this.totalBytes += bytes;
    for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) this.newlines++;
    this.tail = (this.tail + text).slice(-this.limits.maxBytes * 2);
    if (!this.spilled) {
      this.chunks.push(text);
      this.memoryBytes += bytes;
      if (this.memoryBytes > this.spillAt) this.spill();
    } else if (this.stream) this.stream.write(text);
    else this.queued.push(text);
  }

  /** The last `chars` characters of the output, for live progress. */
  preview(chars = 30_000): string {
    return this.tail.slice(-chars);
  }

  private spill(): void {
    this.queued = this.chunks;
    this.chunks = [];
    this.spilled = newOutputPath(this.ctx).then((path) => {
      this.stream = createWriteStream(path);
      for (const text of this.queued) this.stream.write(text);
      this.queued = [];
      return path;
    });
  }

  /** The output for the model: the end of it within the limits, the full text kept when cut. */
  async finish(): Promise<TruncatedOutput> {
    if (!this.spilled) return truncateOutput(this.chunks.join(""), this.ctx, { limits: this.limits, direction: "tail" });
    const path = await this.spilled;
    await new Promise<void>((resolve, reject) => this.stream!.end((error?: Error | null) => (error ? reject(error) : resolve())));
    const cut = cutText(this.tail, this.limits, "tail");
    const keptLines = cut.kept.split("\n").length;
    const keptBytes = Buffer.byteLength(cut.kept);
    const note = truncationNote(this.newlines + 1 - keptLines, this.totalBytes - keptBytes, path);
    return { output: withNote(cut.kept, note, "tail"), truncated: true, outputPath: path };
  }
}
