import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import { StringDecoder } from "node:string_decoder";

/** What {@link scanLines} saw of the whole file. */
export interface LineScan {
  /** Number of lines (a final newline does not start another line). */
  totalLines: number;
  /** SHA-256 of the bytes, hex. */
  hash: string;
}

/**
 * Streams a text file line by line (without the line ending) and hashes its bytes, so a file of any
 * size is read in constant memory. Given an open file, reads it and closes it; given `{ text }`, scans that text. `onLine` gets 1-based line numbers.
 */
export async function scanLines(source: string | FileHandle | { text: string }, onLine: (line: string, number: number) => void, signal?: AbortSignal): Promise<LineScan> {
  const hash = createHash("sha256");
  const decoder = new StringDecoder("utf8");
  let pending = "";
  let count = 0;
  const emit = (line: string) => onLine(line.endsWith("\r") ? line.slice(0, -1) : line, ++count);
  const chunks =
    typeof source === "string"
      ? createReadStream(source, { highWaterMark: 1 << 16, signal })
      : "text" in source
        ? [Buffer.from(source.text)]
        : source.createReadStream({ highWaterMark: 1 << 16, signal });
  for await (const chunk of chunks) {
    hash.update(chunk as Buffer);
    pending += decoder.write(chunk as Buffer);
    let start = 0;
    for (let nl = pending.indexOf("\n"); nl !== -1; nl = pending.indexOf("\n", start)) {
      emit(pending.slice(start, nl));
      start = nl + 1;
    }
    pending = pending.slice(start);
  }
  pending += decoder.end();
  if (pending) emit(pending);
  return { totalLines: count, hash: hash.digest("hex") };
}
