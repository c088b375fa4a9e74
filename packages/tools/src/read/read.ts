import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { acceptArgumentAliases } from "../argument-aliases.js";
import { isBinaryFile, viewableMime } from "../binary-file.js";
import { BinaryFileError, FileNotFoundError, InvalidPathError, ToolInputError } from "../errors.js";
import { recordFile } from "../read-guard.js";
import { similarNames } from "../similar-names.js";
import { defineTool, type Tool, type ToolContext, type ToolResult } from "../tool.js";
import { permissionPath, resolveToolPath, type ResolvedPath } from "../workspace-path.js";
import { openResolved } from "../path-resolution.js";
import { scanLines } from "./line-scan.js";
import description from "./read.txt?raw";

/** Limits of the `read` tool. */
export interface ReadToolOptions {
  /** Lines returned when the call gives no `limit`. Default 2,000. */
  defaultLimit?: number;
  /** Characters kept of one line. Default 2,000. */
  maxLineLength?: number;
  /** Bytes of text returned at most; the footer says where to continue. Default 50 KB. */
  maxBytes?: number;
  /** Largest image or PDF returned as an attachment. Default 10 MB. */
  maxAttachmentBytes?: number;
}

const ReadParameters = acceptArgumentAliases(z.object({
  path: z.string().describe("The file or directory to read, absolute or relative to the working directory"),
  offset: z.number().int().min(1).optional().describe("The 1-based line number to start reading from (default 1)"),
  limit: z.number().int().min(1).optional().describe("The number of lines to read (default 2000)"),
}));

/** Metadata of a `read` result. */
export interface ReadMetadata extends Record<string, unknown> {
  /** What was read: a text file, a directory, or an image/PDF attachment. */
  kind: "file" | "directory" | "attachment";
  /** The first lines returned, for UIs. */
  preview: string;
  /** True when more lines (or entries) follow what was returned. */
  truncated: boolean;
  /** Total lines of the file (entries of the directory). */
  total: number;
}

/** Creates the `read` tool with the given limits. */
export function createReadTool(options: ReadToolOptions = {}): Tool<typeof ReadParameters, ReadMetadata> {
  const limits = {
    defaultLimit: options.defaultLimit ?? 2000,
    maxLineLength: options.maxLineLength ?? 2000,
    maxBytes: options.maxBytes ?? 50 * 1024,
    maxAttachmentBytes: options.maxAttachmentBytes ?? 10 * 1024 * 1024,
  };
  return defineTool({
    name: "read",
    description,
    parameters: ReadParameters,
    readOnly: true,
    boundsOutput: true,
    async execute(args, ctx) {
      const target = await resolveToolPath(ctx, args.path);
      // Asked before anything is looked at, so a denied path does not even reveal whether it exists.
      await ctx.ask({ permission: "read", patterns: [permissionPath(target)] });
      const info = await stat(target.absolute).catch((error: NodeJS.ErrnoException) => {
        if (error.code === "ENOENT" || error.code === "ENOTDIR") return undefined;
        throw error;
      });
      if (!info) throw new FileNotFoundError(target.absolute, await similarNames(target.absolute));
      if (info.isDirectory()) return readDirectory(target, args, limits.defaultLimit);
      if (!info.isFile()) throw new InvalidPathError(args.path, "not a regular file or directory");

      const mime = viewableMime(target.absolute);
      if (mime) {
        if (info.size > limits.maxAttachmentBytes) {
          throw new ToolInputError("read", `${target.relative} is ${info.size} bytes; files over ${limits.maxAttachmentBytes} bytes are not attached.`);
        }
        const bytes = await readFile(target.absolute);
        const kind = mime === "application/pdf" ? "PDF" : "Image";
        return {
          title: target.relative,
          output: `${kind} read successfully: ${target.absolute}`,
          metadata: { kind: "attachment", preview: "", truncated: false, total: 0 },
          attachments: [{ mime, filename: path.basename(target.absolute), url: `data:${mime};base64,${bytes.toString("base64")}` }],
        };
      }
      if (await isBinaryFile(target.absolute)) throw new BinaryFileError(target.absolute);
      return readText(ctx, target, args, info, limits);
    },
  });
}

async function readText(
  ctx: ToolContext,
  target: ResolvedPath,
  args: { offset?: number; limit?: number },
  info: { mtimeMs: number; size: number },
  limits: Required<ReadToolOptions>,
): Promise<ToolResult<ReadMetadata>> {
  const offset = args.offset ?? 1;
  const limit = args.limit ?? limits.defaultLimit;
  const out: string[] = [];
  let bytes = 0;
  let lastShown = offset - 1;
  let cutByBytes = false;
  // Through the host's file access (an editor's buffer) when it has the file; else opened without
  // following a symlink swapped in since the path was checked.
  const buffered = ctx.files ? await ctx.files.readText(target.absolute, { sessionID: ctx.sessionID, signal: ctx.abort }) : undefined;
  const scan = await scanLines(
    buffered !== undefined ? { text: buffered } : await openResolved(target.absolute),
    (line, number) => {
      if (number < offset || number >= offset + limit || cutByBytes) return;
      const text = line.length > limits.maxLineLength ? `${line.slice(0, limits.maxLineLength)}… (line cut at ${limits.maxLineLength} characters)` : line;
      const numbered = `${String(number).padStart(6)}\t${text}`;
      const size = Buffer.byteLength(numbered) + 1;
      if (bytes + size > limits.maxBytes && out.length > 0) {
        cutByBytes = true;
        return;
      }
      out.push(numbered);
      bytes += size;
      lastShown = number;
    },
    ctx.abort,
  );
  recordFile(ctx, target.absolute, { mtimeMs: info.mtimeMs, size: info.size, hash: scan.hash });

  const total = scan.totalLines;
  if (total === 0) {
    return { title: target.relative, output: "(The file is empty.)", metadata: { kind: "file", preview: "", truncated: false, total } };
  }
  if (offset > total) {
    throw new ToolInputError("read", `Offset ${offset} is past the end of ${target.relative}, which has ${total} lines.`);
  }
  const more = lastShown < total;
  const footer = more
    ? `(Lines ${offset}-${lastShown} of ${total}${cutByBytes ? `, cut at ${limits.maxBytes} bytes` : ""}. Use offset=${lastShown + 1} to read on.)`
    : `(End of file: ${total} lines.)`;
  return {
    title: target.relative,
    output: `${out.join("\n")}\n\n${footer}`,
    metadata: { kind: "file", preview: out.slice(0, 20).join("\n"), truncated: more, total },
  };
}

async function readDirectory(
  target: ResolvedPath,
  args: { offset?: number; limit?: number },
  defaultLimit: number,
): Promise<ToolResult<ReadMetadata>> {
  const entries = await readdir(target.absolute, { withFileTypes: true });
  const names = entries.map((entry) => (entry.isDirectory() ? `${entry.name}/` : entry.name)).sort((a, b) => a.localeCompare(b));
  const offset = args.offset ?? 1;
  const limit = args.limit ?? defaultLimit;
  if (names.length > 0 && offset > names.length) {
    throw new ToolInputError("read", `Offset ${offset} is past the end of ${target.relative}, which has ${names.length} entries.`);
  }
  const shown = names.slice(offset - 1, offset - 1 + limit);
  const last = offset - 1 + shown.length;
  const footer = last < names.length
    ? `(Entries ${offset}-${last} of ${names.length}. Use offset=${last + 1} to list more.)`
    : `(${names.length} entr${names.length === 1 ? "y" : "ies"}.)`;
  return {
    title: target.relative,
    output: `${target.absolute}/\n${shown.join("\n")}${shown.length ? "\n" : ""}\n${footer}`,
    metadata: { kind: "directory", preview: shown.slice(0, 20).join("\n"), truncated: last < names.length, total: names.length },
  };
}

/** The `read` tool with default limits. */
export const readTool = createReadTool();
