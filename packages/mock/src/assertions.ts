import { isAbsolute, relative, sep } from "node:path";
import type { MessageWithParts, Part, ToolPart } from "@lathe/message";

/** An event as the helpers read it: Lathe's `AgentEvent`s fit, and so does anything with a `type`. */
export interface RunEventLike {
  readonly type: string;
}

/** What {@link collectRun} returns: a run's events in order, and its final message. */
export interface CollectedRun<E extends RunEventLike = RunEventLike, R extends { parts: Part[] } = { parts: Part[] }> {
  events: E[];
  result: R;
  /** The final message's parts (same as `result.parts`). */
  parts: Part[];
}

/**
 * What the assertion helpers read: a run's result (`await run`), a {@link CollectedRun}, a
 * session's messages (`agent.sessions.messages(id)`), a list of parts, or a list of events.
 */
export type RunRecord = { parts: Part[] } | CollectedRun | readonly MessageWithParts[] | readonly Part[] | readonly RunEventLike[];

/** A tool call a run made, in the order the model made them, with how it ended. */
export interface ToolCallRecord {
  tool: string;
  input: Record<string, unknown>;
  status: ToolPart["state"]["status"];
  /** The tool's title, once it has one. */
  title?: string;
  /** The output the model read, when the call completed. */
  output?: string;
  /** The error the model read, when the call failed or was rejected. */
  error?: string;
  /** Metadata of the result (diffs, exit codes) or of the running call. */
  metadata?: Record<string, unknown>;
}

/**
 * Iterates a run to the end and awaits it: its events in order and its final message, ready for the
 * assertion helpers. Rejects as the run does.
 */
export async function collectRun<E extends RunEventLike, R extends { parts: Part[] }>(
  run: AsyncIterable<E> & PromiseLike<R>,
): Promise<CollectedRun<E, R>> {
  const events: E[] = [];
  for await (const event of run) events.push(event);
  const result = await run;
  return { events, result, parts: result.parts };
}

const isCollected = (record: RunRecord): record is CollectedRun =>
  !Array.isArray(record) && "events" in record && Array.isArray((record as CollectedRun).events);
const isMessage = (item: unknown): item is MessageWithParts =>
  typeof item === "object" && item !== null && "info" in item && "parts" in item;
const isPart = (item: unknown): item is Part =>
  typeof item === "object" && item !== null && "messageID" in item && "id" in item && !("part" in item);

interface PartUpdate extends RunEventLike {
  type: "message.part.updated";
  part: Part;
}
interface MessageUpdate extends RunEventLike {
  type: "message.updated";
  message: { id: string; role: string };
}

/** The latest version of every part the events carried, in order of first appearance, with the roles seen. */
function partsFromEvents(events: readonly RunEventLike[]): { parts: Part[]; roles: Map<string, string> } {
  const latest = new Map<string, Part>();
  const roles = new Map<string, string>();
  for (const event of events) {
    if (event.type === "message.part.updated") {
      const { part } = event as PartUpdate;
      latest.set(part.id, part);
    } else if (event.type === "message.updated") {
      const { message } = event as MessageUpdate;
      roles.set(message.id, message.role);
    }
  }
  return { parts: [...latest.values()], roles };
}

/** The assistant parts a record holds, in order. Events' user parts are left out when their role is known. */
function assistantParts(record: RunRecord): Part[] {
  if (isCollected(record)) {
    const fromEvents = assistantParts(record.events);
    return fromEvents.length > 0 ? mergeParts(fromEvents, record.parts) : record.parts;
  }
  if (!Array.isArray(record)) return (record as { parts: Part[] }).parts;
  const items = record as readonly unknown[];
  if (items.length === 0) return [];
  if (isMessage(items[0])) return (items as MessageWithParts[]).filter((m) => m.info.role === "assistant").flatMap((m) => m.parts);
  if (isPart(items[0])) return items as Part[];
  const { parts, roles } = partsFromEvents(items as RunEventLike[]);
  return parts.filter((part) => roles.get(part.messageID) !== "user");
}

// A run's events cover every message of the turn; its result holds the final state of the last one.
function mergeParts(fromEvents: Part[], final: Part[]): Part[] {
  const finalById = new Map(final.map((part) => [part.id, part]));
  const merged = fromEvents.map((part) => finalById.get(part.id) ?? part);
  const seen = new Set(merged.map((part) => part.id));
  return [...merged, ...final.filter((part) => !seen.has(part.id))];
}

/** The tool calls a run made, in order, each with its final state. */
export function toolCalls(record: RunRecord): ToolCallRecord[] {
  return assistantParts(record)
    .filter((part): part is ToolPart => part.type === "tool")
    .map(({ tool, state }) => {
      const call: ToolCallRecord = { tool, input: state.input, status: state.status };
      if (state.status === "completed") Object.assign(call, { title: state.title, output: state.output, metadata: state.metadata });
      if (state.status === "running" && state.title !== undefined) call.title = state.title;
      if (state.status === "error") {
        call.error = state.error;
        if (state.metadata) call.metadata = state.metadata;
      }
      return call;
    });
}

/**
 * The text the run ended with: the model's text of its last step (the text after the last tool
 * call), joined. Text Lathe or the host added (`synthetic`, `ignored`) is left out. "" when the run
 * ended without text.
 */
export function finalText(record: RunRecord): string {
  const parts = assistantParts(record);
  let start = 0;
  parts.forEach((part, index) => {
    if (part.type === "step-start" || part.type === "tool") start = index + 1;
  });
  return parts
    .slice(start)
    .flatMap((part) => (part.type === "text" && !part.synthetic && !part.ignored ? [part.text] : []))
    .join("");
}

/** Options of {@link filesChanged}. */
export interface FilesChangedOptions {
  /** The workspace: absolute paths inside it are given relative to it (with `/`). */
  cwd?: string;
}

/**
 * The files a run changed, sorted and without repeats: from `file.edited` events, `patch` parts (the
 * files each step changed, whatever changed them), and the results of the editing tools (`write`,
 * `edit`, `multiedit`, `apply_patch`). Give `cwd` to get workspace-relative paths throughout.
 */
export function filesChanged(record: RunRecord, options: FilesChangedOptions = {}): string[] {
  const files = new Set<string>();
  const add = (file: unknown) => {
    if (typeof file === "string" && file !== "") files.add(display(file, options.cwd));
  };
  const events = isCollected(record) ? record.events : Array.isArray(record) && record.length > 0 && !isMessage(record[0]) && !isPart(record[0]) ? (record as RunEventLike[]) : [];
  for (const event of events) if (event.type === "file.edited") add((event as RunEventLike & { file?: unknown }).file);
  for (const part of assistantParts(record)) {
    if (part.type === "patch") part.files.forEach(add);
    if (part.type === "tool" && part.state.status === "completed") {
      const { metadata } = part.state;
      add(metadata.filepath);
      if (Array.isArray(metadata.files)) {
        for (const file of metadata.files as Array<{ path?: unknown; from?: unknown }>) {
          add(file.path);
          add(file.from);
        }
      }
    }
  }
  return [...files].sort();
}

function display(file: string, cwd: string | undefined): string {
  if (!cwd || !isAbsolute(file)) return file.split(sep).join("/");
  const inside = relative(cwd, file);
  return inside.startsWith("..") || isAbsolute(inside) ? file : inside.split(sep).join("/");
}
