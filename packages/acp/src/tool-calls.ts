import type { ToolCall, ToolCallContent, ToolCallLocation, ToolCallStatus, ToolCallUpdate, ToolKind } from "@agentclientprotocol/sdk";
import type { ToolPart, ToolState } from "@lathe/message";
import { isAbsolute, resolve } from "node:path";
import { parsePatch } from "diff";

// How a Lathe tool call looks to an editor: its kind (the icon an editor picks), a title, the files
// it touches (so the editor can follow along) and, once it ran, its content — text, or for the
// file-changing tools the diff of each file as old and new text.

const KINDS: Record<string, ToolKind> = {
  read: "read",
  list: "search",
  glob: "search",
  grep: "search",
  sourcegraph: "search",
  write: "edit",
  edit: "edit",
  multiedit: "edit",
  apply_patch: "edit",
  bash: "execute",
  webfetch: "fetch",
  todowrite: "think",
  todoread: "think",
  task: "think",
  skill: "read",
  diagnostics: "read",
};

/** The ACP kind of a Lathe tool; `other` for tools the editor has no icon for (MCP tools, the host's own). */
export function toolKind(tool: string): ToolKind {
  return KINDS[tool] ?? "other";
}

const STATUS: Record<ToolState["status"], ToolCallStatus> = {
  pending: "pending",
  running: "in_progress",
  completed: "completed",
  error: "failed",
};

/** A title for the call: the tool's own title once it has one, else the tool and what it works on. */
export function toolTitle(part: ToolPart): string {
  const state = part.state;
  if ((state.status === "running" || state.status === "completed") && state.title) return state.title;
  const input = state.input;
  const subject = firstString(input, ["command", "filePath", "path", "pattern", "url", "query", "description"]);
  return subject ? `${part.tool} ${subject}` : part.tool;
}

/** The files a call reads or writes, as absolute paths the editor can open. */
export function toolLocations(part: ToolPart, cwd: string): ToolCallLocation[] {
  const input = part.state.input;
  const path = firstString(input, ["filePath", "path"]);
  if (!path || part.tool === "bash") return [];
  const absolute = absolutePath(path, cwd);
  const offset = input.offset;
  return [typeof offset === "number" && Number.isInteger(offset) && offset > 0 ? { path: absolute, line: offset } : { path: absolute }];
}

/** The `tool_call` update announcing a call the editor has not seen yet. */
export function toolCallStart(part: ToolPart, cwd: string): ToolCall {
  return {
    toolCallId: part.callID,
    title: toolTitle(part),
    kind: toolKind(part.tool),
    status: STATUS[part.state.status],
    locations: toolLocations(part, cwd),
    rawInput: part.state.input,
    ...finishedContent(part, cwd),
  };
}

/** The `tool_call_update` of a call the editor has seen: status, title, input and — when done — content. */
export function toolCallProgress(part: ToolPart, cwd: string): ToolCallUpdate {
  return {
    toolCallId: part.callID,
    status: STATUS[part.state.status],
    title: toolTitle(part),
    locations: toolLocations(part, cwd),
    rawInput: part.state.input,
    ...finishedContent(part, cwd),
  };
}

function finishedContent(part: ToolPart, cwd: string): { content?: ToolCallContent[]; rawOutput?: unknown } {
  const state = part.state;
  if (state.status === "error") return { content: [textContent(state.error)], rawOutput: { error: state.error } };
  if (state.status !== "completed") return {};
  const diffs = diffContent(state.metadata, cwd);
  const output = part.tool === "bash" ? "```console\n" + state.output.replace(/\n$/, "") + "\n```" : state.output;
  return { content: [...diffs, ...(output ? [textContent(output)] : [])], rawOutput: { output: state.output, metadata: state.metadata } };
}

function textContent(text: string): ToolCallContent {
  return { type: "content", content: { type: "text", text } };
}

/**
 * The diffs a file-changing tool reports (its `metadata.diff`, a unified diff of one or more files)
 * as ACP diff content: per file its path and the old and new text of the changed regions, context
 * included. A new file has no old text.
 */
export function diffContent(metadata: Record<string, unknown> | undefined, cwd: string): ToolCallContent[] {
  const unified = metadata?.diff;
  if (typeof unified !== "string" || unified.trim() === "") return [];
  const fallbackPath = typeof metadata?.filepath === "string" ? metadata.filepath : undefined;
  let files;
  try {
    files = parsePatch(unified);
  } catch {
    return [];
  }
  const out: ToolCallContent[] = [];
  for (const file of files) {
    const path = cleanPath(file.newFileName) ?? cleanPath(file.oldFileName) ?? fallbackPath;
    if (!path || file.hunks.length === 0) continue;
    const oldLines: string[] = [];
    const newLines: string[] = [];
    for (const hunk of file.hunks) {
      for (const line of hunk.lines) {
        const mark = line[0];
        const text = line.slice(1);
        if (mark === " " || mark === "-") oldLines.push(text);
        if (mark === " " || mark === "+") newLines.push(text);
      }
    }
    const created = file.hunks.every((hunk) => hunk.oldLines === 0);
    const absolute = fallbackPath && files.length === 1 ? fallbackPath : absolutePath(path, cwd);
    out.push({ type: "diff", path: absolute, oldText: created ? null : oldLines.join("\n"), newText: newLines.join("\n") });
  }
  return out;
}

function cleanPath(name: string | undefined): string | undefined {
  if (!name || name === "/dev/null") return undefined;
  return name.replace(/^[ab]\//, "");
}

function firstString(input: Record<string, unknown>, keys: string[]): string | undefined {
  for (const key of keys) {
    const value = input[key];
    if (typeof value === "string" && value.trim() !== "") return value.length > 120 ? `${value.slice(0, 117)}…` : value;
  }
  return undefined;
}

function absolutePath(path: string, cwd: string): string {
  return isAbsolute(path) ? path : resolve(cwd, path);
}
