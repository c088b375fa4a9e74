import { randomUUID } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { ToolContext } from "./tool.js";
import { sessionDataDir } from "./workspace-path.js";

/** How much output a tool may return to the model. */
export interface TruncationLimits {
  /** Lines kept at most. Default 2,000. */
  maxLines: number;
  /** Bytes (UTF-8) kept at most. Default 50 KB. */
  maxBytes: number;
}

/** The default output limits: 2,000 lines or 50 KB, whichever comes first. */
export const DEFAULT_TRUNCATION: TruncationLimits = { maxLines: 2000, maxBytes: 50 * 1024 };

/**
 * Which part of an over-long output to keep: the start, the end (command output), or both ends with
 * the middle cut (the loop's cap on tools that do not bound their own output: a log's first lines
 * and its final error both survive).
 */
export type TruncationDirection = "head" | "tail" | "both";

/** The result of {@link truncateOutput}. */
export interface TruncatedOutput {
  /** The text for the model: the whole output, or the kept part with a note. */
  output: string;
  truncated: boolean;
  /** Where the full text was kept, when truncated. */
  outputPath?: string;
}

/** What {@link cutText} kept and dropped. */
export interface CutText {
  kept: string;
  cutLines: number;
  cutBytes: number;
}

/**
 * Keeps the head or tail of `text` within `limits` and counts what was dropped. Cuts at line
 * boundaries, except that a single line longer than the byte budget is cut inside.
 */
export function cutText(text: string, limits: TruncationLimits, direction: "head" | "tail" = "head"): CutText {
  const totalBytes = Buffer.byteLength(text);
  const lines = text.split("\n");
  if (lines.length <= limits.maxLines && totalBytes <= limits.maxBytes) return { kept: text, cutLines: 0, cutBytes: 0 };
  const kept = takeLines(direction === "head" ? lines : [...lines].reverse(), limits, direction);
  if (direction === "tail") kept.reverse();
  const keptText = kept.join("\n");
  // A line cut inside counts as shown: the note speaks of lines the model sees nothing of.
  return { kept: keptText, cutLines: lines.length - kept.length, cutBytes: totalBytes - Buffer.byteLength(keptText) };
}

/** What {@link cutMiddle} kept of both ends and dropped between them. */
export interface CutMiddle {
  head: string;
  tail: string;
  cutLines: number;
  cutBytes: number;
}

/**
 * Keeps the head and the tail of `text` within `limits` together (each end gets half of the lines and
 * bytes) and counts what was cut from the middle. Undefined when the text is within the limits.
 */
export function cutMiddle(text: string, limits: TruncationLimits): CutMiddle | undefined {
  const totalBytes = Buffer.byteLength(text);
  const lines = text.split("\n");
  if (lines.length <= limits.maxLines && totalBytes <= limits.maxBytes) return undefined;
  const headLimits = { maxLines: Math.ceil(limits.maxLines / 2), maxBytes: Math.floor(limits.maxBytes / 2) };
  const head = takeLines(lines, headLimits, "head");
  const headBytes = Buffer.byteLength(head.join("\n"));
  // The tail never reaches back into what the head kept (a line cut inside counts as kept).
  const rest = lines.slice(head.length).reverse();
  const tail = takeLines(rest, { maxLines: limits.maxLines - head.length, maxBytes: Math.max(0, limits.maxBytes - headBytes) }, "tail").reverse();
  const headText = head.join("\n");
  const tailText = tail.join("\n");
  return {
    head: headText,
    tail: tailText,
    cutLines: lines.length - head.length - tail.length,
    cutBytes: totalBytes - Buffer.byteLength(headText) - Buffer.byteLength(tailText),
  };
}

/** Lines from the start of `ordered` within `limits`; a first line over the byte budget is cut inside. */
function takeLines(ordered: string[], limits: TruncationLimits, direction: "head" | "tail"): string[] {
  const kept: string[] = [];
  let bytes = 0;
  for (const line of ordered) {
    if (kept.length >= limits.maxLines) break;
    const size = Buffer.byteLength(line) + (kept.length ? 1 : 0);
    if (bytes + size > limits.maxBytes) {
      // A first line that alone exceeds the budget is cut, so the model still sees something.
      if (kept.length === 0 && limits.maxBytes > 0) kept.push(sliceBytes(line, limits.maxBytes, direction));
      break;
    }
    kept.push(line);
    bytes += size;
  }
  return kept;
}

/** The first (head) or last (tail) `maxBytes` bytes of `line`, never splitting a character. */
function sliceBytes(line: string, maxBytes: number, direction: "head" | "tail"): string {
  const buf = Buffer.from(line);
  if (direction === "head") return buf.subarray(0, maxBytes).toString("utf8").replace(/\uFFFD$/, "");
  return buf.subarray(buf.length - maxBytes).toString("utf8").replace(/^\uFFFD/, "");
}

/** The note that tells the model how much was cut and how to read the rest. */
export function truncationNote(cutLines: number, cutBytes: number, outputPath: string, where?: string): string {
  return (
    `[output truncated${where ? ` ${where}` : ""}: ${cutBytes} bytes not shown, ${cutLines} whole line${cutLines === 1 ? "" : "s"} among them. ` +
    `The full output is saved in ${outputPath}; use the read tool with offset and limit, or grep, ` +
    `to see the rest instead of reading it all at once.]`
  );
}

/** Puts the note at the cut end of the kept text. */
export function withNote(kept: string, note: string, direction: "head" | "tail"): string {
  return direction === "head" ? `${kept}\n\n${note}` : `${note}\n\n${kept}`;
}

/** A fresh path for a kept full output in the session's data directory (created on demand). */
export async function newOutputPath(ctx: Pick<ToolContext, "dataDir" | "sessionID">): Promise<string> {
  const dir = path.join(sessionDataDir(ctx), "tool-output");
  await mkdir(dir, { recursive: true });
  return path.join(dir, `${Date.now()}-${randomUUID().slice(0, 8)}.txt`);
}

/**
 * Cuts an output over the limits (default 2,000 lines or 50 KB), keeps the full text in the session's
 * data directory where the `read` tool can reach it, and appends a note saying how much was cut and
 * where the rest is. Output within the limits comes back unchanged.
 */
export async function truncateOutput(
  text: string,
  ctx: Pick<ToolContext, "dataDir" | "sessionID">,
  options: { limits?: Partial<TruncationLimits>; direction?: TruncationDirection } = {},
): Promise<TruncatedOutput> {
  const limits = { ...DEFAULT_TRUNCATION, ...options.limits };
  const direction = options.direction ?? "head";
  if (direction === "both") {
    const cut = cutMiddle(text, limits);
    if (!cut) return { output: text, truncated: false };
    const outputPath = await keepFullText(text, ctx);
    const note = truncationNote(cut.cutLines, cut.cutBytes, outputPath, "from the middle");
    return { output: `${cut.head}\n\n${note}\n\n${cut.tail}`, truncated: true, outputPath };
  }
  const cut = cutText(text, limits, direction);
  if (!cut.cutLines && !cut.cutBytes) return { output: text, truncated: false };
  const outputPath = await keepFullText(text, ctx);
  return {
    output: withNote(cut.kept, truncationNote(cut.cutLines, cut.cutBytes, outputPath), direction),
    truncated: true,
    outputPath,
  };
}

async function keepFullText(text: string, ctx: Pick<ToolContext, "dataDir" | "sessionID">): Promise<string> {
  const outputPath = await newOutputPath(ctx);
  await writeFile(outputPath, text);
  return outputPath;
}
