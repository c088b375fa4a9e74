import type {
  AssistantModelMessage,
  FilePart as ModelFilePart,
  ModelMessage,
  TextPart as ModelTextPart,
  ToolModelMessage,
  ToolResultPart,
  UserModelMessage,
} from "ai";
import type { AssistantMessage, ModelRef, UserMessage } from "./message.js";
import type { MessageWithParts } from "./message-with-parts.js";
import type { FilePart, Part, ToolAttachment, ToolPart } from "./part.js";

/** The result the model sees for a tool call that never finished (crash, abort mid-call). */
export const INTERRUPTED_TOOL_RESULT = "[Tool execution was interrupted]";
/** What the model sees instead of a tool output that compaction cleared. */
export const COMPACTED_TOOL_RESULT = "[Old tool result content cleared]";
/** The user turn that stands for a compaction point, answered by the summary that follows it. */
export const COMPACTION_PROMPT = "What did we do so far?";

/** Options of {@link toModelMessages}. */
export interface ToModelMessagesOptions {
  /**
   * The model the messages are for. Reasoning and provider metadata are replayed only to the model
   * that produced them; without this option they are never replayed.
   */
  model?: ModelRef;
  /**
   * Reuses the conversion of steps seen in an earlier call (see {@link ModelMessageCache}): a loop
   * that sends a growing history again each step then converts only the steps that changed.
   */
  cache?: ModelMessageCache;
}

interface CachedSegment {
  replay: boolean;
  /** How many parts the step had when converted. */
  count: number;
  /** Set when one of its parts changed since. */
  dirty: boolean;
  out: ModelMessage[];
  /** The layout of the parts array the step belongs to, whose assembled messages it is part of. */
  layout: Layout;
}

/** A user message's conversion (undefined when nothing of it is sent). */
interface CachedUser {
  /** The parts it was made from, by identity. */
  parts: Part[];
  dirty: boolean;
  out: UserModelMessage | undefined;
  layout?: undefined;
}

/** Where the steps of one parts array begin, as far as it has been looked at. */
interface Layout {
  scanned: number;
  starts: number[];
  /**
   * The messages of every step but the last, concatenated: those steps are complete (a later step
   * began), so the next call copies them in one go instead of looking each up. Dropped when one of
   * their parts changes.
   */
  assembled?: { replay: boolean; steps: number; out: ModelMessage[] };
}

/**
 * Remembers the model messages each message and each step of an assistant message became, so that
 * converting a history again after it grew by a step converts only that step: a loop that sends its
 * whole history on every request then does work per request that does not grow with the session,
 * and gets back the very same message objects for what did not change (which lets a caller keep its
 * own conversions of them).
 *
 * The cache trusts what it is told: a user message is reused while it has the same part objects and
 * none was reported changed; a step while it has the same first part and count and none of its parts
 * was reported changed. Call {@link ModelMessageCache.changed} for a part edited in place,
 * {@link ModelMessageCache.clear} after edits it cannot be told about (parts of an assistant message
 * removed or replaced by new objects, a history rewritten). Parts appended at the end need no report.
 */
export class ModelMessageCache {
  private segments = new WeakMap<Part, CachedSegment>();
  private users = new WeakMap<Part[], CachedUser>();
  /** The same entries by their first part: a history read or rebuilt holds the same parts in a new array. */
  private usersByFirst = new WeakMap<Part, CachedUser>();
  private layouts = new WeakMap<Part[], Layout>();
  /** The cached step or user message each part belongs to. */
  private owner = new WeakMap<Part, CachedSegment | CachedUser>();

  /**
   * Reports a part edited in place: the step or message holding it is converted again — unless it
   * is a part a step's conversion never reads (a step's bounds with their snapshots and usage, a
   * patch, a retry), which changes nothing the model sees.
   */
  changed(part: Part): void {
    const entry = this.owner.get(part);
    if (!entry) return;
    if (entry.layout && !STEP_CONTENT.has(part.type)) return;
    entry.dirty = true;
    if (entry.layout) entry.layout.assembled = undefined;
  }

  /** Forgets everything. */
  clear(): void {
    this.segments = new WeakMap();
    this.users = new WeakMap();
    this.usersByFirst = new WeakMap();
    this.layouts = new WeakMap();
    this.owner = new WeakMap();
  }

  /**
   * The user message `parts` became, converted or remembered.
   * @internal
   */
  user(parts: Part[], convert: () => UserModelMessage | undefined): UserModelMessage | undefined {
    const cached = this.users.get(parts) ?? (parts[0] ? this.usersByFirst.get(parts[0]) : undefined);
    if (cached && !cached.dirty && samePartObjects(cached.parts, parts)) {
      this.users.set(parts, cached);
      return cached.out;
    }
    const entry: CachedUser = { parts: parts.slice(), dirty: false, out: convert() };
    this.users.set(parts, entry);
    if (parts[0]) this.usersByFirst.set(parts[0], entry);
    for (const part of parts) this.owner.set(part, entry);
    return entry.out;
  }

  /**
   * The messages of an assistant message's steps, in order: the complete steps copied from the last
   * call, the newest converted or remembered.
   * @internal
   */
  assistant(parts: Part[], replay: boolean): ModelMessage[] {
    const layout = this.layout(parts);
    const starts = layout.starts;
    const assembled = layout.assembled?.replay === replay ? layout.assembled : undefined;
    const out = assembled ? assembled.out.slice() : [];
    let complete = out.length;
    for (let s = assembled ? assembled.steps : 0; s < starts.length; s++) {
      if (s === starts.length - 1) complete = out.length;
      for (const message of this.segment(parts, starts[s]!, starts[s + 1] ?? parts.length, replay, layout)) out.push(message);
    }
    layout.assembled = { replay, steps: starts.length - 1, out: out.slice(0, complete) };
    return out;
  }

  /** The layout of `parts`, its step starts scanned up to its end (only what is new is scanned). */
  private layout(parts: Part[]): Layout {
    let layout = this.layouts.get(parts);
    if (!layout || layout.scanned > parts.length) {
      layout = { scanned: 1, starts: [0] };
      this.layouts.set(parts, layout);
    }
    for (let i = layout.scanned; i < parts.length; i++) if (parts[i]!.type === "step-start") layout.starts.push(i);
    layout.scanned = Math.max(layout.scanned, parts.length);
    return layout;
  }

  /** The messages of `parts[start, end)`, converted or remembered. */
  private segment(parts: Part[], start: number, end: number, replay: boolean, layout: Layout): ModelMessage[] {
    const first = parts[start]!;
    const cached = this.segments.get(first);
    if (cached && !cached.dirty && cached.replay === replay && cached.count === end - start) return cached.out;
    const entry: CachedSegment = { replay, count: end - start, dirty: false, out: segmentMessages(parts, start, end, replay), layout };
    this.segments.set(first, entry);
    for (let i = start; i < end; i++) this.owner.set(parts[i]!, entry);
    return entry.out;
  }
}

function samePartObjects(a: readonly Part[], b: readonly Part[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** A referenced file (`@path`) of these types travels as the synthetic text written beside it. */
export const TEXT_CARRIED_MIMES: ReadonlySet<string> = new Set(["text/plain", "application/x-directory"]);

/**
 * Converts stored messages into the AI SDK's `ModelMessage[]`.
 *
 * - Synthetic text is sent; `ignored` text is not. Attached text files are sent inline as text.
 * - An assistant message that failed before producing anything is dropped.
 * - Each step of an assistant message becomes an assistant message followed by a tool message with
 *   the results of that step's calls, so every tool call gets a result: unfinished calls (pending or
 *   running, e.g. after a crash) get {@link INTERRUPTED_TOOL_RESULT} as an error result.
 * - Tool outputs marked compacted are replaced by {@link COMPACTED_TOOL_RESULT}.
 * - Reasoning and provider metadata are kept only for the model that produced them.
 */
export function toModelMessages(messages: MessageWithParts[], options: ToModelMessagesOptions = {}): ModelMessage[] {
  const out: ModelMessage[] = [];
  for (const { info, parts } of messages) {
    if (info.role === "user") {
      const user = options.cache ? options.cache.user(parts, () => userMessage(info, parts)) : userMessage(info, parts);
      if (user) out.push(user);
    } else {
      for (const message of assistantMessages(info, parts, options.model, options.cache)) out.push(message);
    }
  }
  return out;
}

function userMessage(info: UserMessage, parts: Part[]): UserModelMessage | undefined {
  const content: Array<ModelTextPart | ModelFilePart> = [];
  for (const part of parts) {
    switch (part.type) {
      case "text":
        if (!part.ignored && part.text !== "") content.push({ type: "text", text: part.text });
        break;
      case "file": {
        const sent = userFile(part);
        if (sent) content.push(sent);
        break;
      }
      case "compaction":
        content.push({ type: "text", text: COMPACTION_PROMPT });
        break;
      case "subtask":
        content.push({ type: "text", text: `The ${part.agent} agent was asked to: ${part.description}` });
        break;
      default:
        // agent parts travel as the synthetic text written beside them; step and other parts
        // belong to assistant messages.
        break;
    }
  }
  if (info.environment) content.push({ type: "text", text: info.environment });
  return content.length > 0 ? { role: "user", content } : undefined;
}

/**
 * How a file the user attached reaches the model: a referenced text file or directory not at all
 * (its synthetic text carries it); any other text file inline as text (providers take few text
 * media types as files); a `file:` URL, which no provider can fetch, as a note; the rest as a file.
 */
function userFile(part: FilePart): ModelTextPart | ModelFilePart | undefined {
  if (part.source && TEXT_CARRIED_MIMES.has(part.mime)) return undefined;
  const name = part.filename ?? part.source?.path ?? "attachment";
  if (part.url.startsWith("file:")) return { type: "text", text: `[The file ${name} was attached but is not readable here.]` };
  if (part.mime.startsWith("text/") || part.mime === "application/json") {
    const data = parseDataUrl(part.url);
    if (data !== undefined) return { type: "text", text: `<file name="${name}">\n${Buffer.from(data, "base64").toString("utf8")}\n</file>` };
  }
  return filePart(part);
}

function filePart(part: FilePart): ModelFilePart {
  const file: ModelFilePart = { type: "file", mediaType: part.mime, data: fileData(part.url) };
  if (part.filename) file.filename = part.filename;
  return file;
}

function fileData(url: string): ModelFilePart["data"] {
  const inline = parseDataUrl(url);
  return inline !== undefined ? { type: "data", data: inline } : { type: "url", url: new URL(url) };
}

function parseDataUrl(url: string): string | undefined {
  if (!url.startsWith("data:")) return undefined;
  const comma = url.indexOf(",");
  const header = url.slice(5, comma);
  const payload = url.slice(comma + 1);
  return header.endsWith(";base64") ? payload : Buffer.from(decodeURIComponent(payload)).toString("base64");
}

function sameModel(info: AssistantMessage, model: ModelRef | undefined): boolean {
  return model !== undefined && model.providerID === info.providerID && model.modelID === info.modelID;
}

function producedContent(parts: Part[]): boolean {
  return parts.some(
    (p) => (p.type === "text" && p.text !== "") || p.type === "reasoning" || p.type === "tool" || p.type === "file",
  );
}

type AssistantContent = Exclude<AssistantModelMessage["content"], string>;

function assistantMessages(info: AssistantMessage, parts: Part[], model: ModelRef | undefined, cache: ModelMessageCache | undefined): ModelMessage[] {
  if (info.error && !producedContent(parts)) return [];
  if (parts.length === 0) return [];
  const replay = sameModel(info, model);
  if (cache) return cache.assistant(parts, replay);
  // Each step (from its step-start part to the next) becomes its own messages.
  const out: ModelMessage[] = [];
  const starts = stepStarts(parts);
  for (let s = 0; s < starts.length; s++) {
    for (const message of segmentMessages(parts, starts[s]!, starts[s + 1] ?? parts.length, replay)) out.push(message);
  }
  return out;
}

/** The indexes where the steps of `parts` begin (the first is always 0). */
function stepStarts(parts: Part[]): number[] {
  const starts = [0];
  for (let i = 1; i < parts.length; i++) if (parts[i]!.type === "step-start") starts.push(i);
  return starts;
}

/** The part types {@link segmentMessages} reads; the others of a step leave its messages as they are. */
const STEP_CONTENT: ReadonlySet<Part["type"]> = new Set(["text", "reasoning", "file", "tool"]);

/** One step's parts as an assistant message and, when it called tools, a tool message with their results. */
function segmentMessages(parts: Part[], start: number, end: number, replayMetadata: boolean): ModelMessage[] {
  const out: ModelMessage[] = [];
  const content: AssistantContent = [];
  const results: ToolResultPart[] = [];
  for (let i = start; i < end; i++) {
    const part = parts[i]!;
    switch (part.type) {
      case "text":
        if (part.text !== "" && !part.ignored) {
          content.push({
            type: "text",
            text: part.text,
            ...(replayMetadata && part.providerMetadata ? { providerOptions: part.providerMetadata as never } : {}),
          });
        }
        break;
      case "reasoning":
        if (replayMetadata && part.text !== "") {
          content.push({
            type: "reasoning",
            text: part.text,
            ...(part.providerMetadata ? { providerOptions: part.providerMetadata as never } : {}),
          });
        }
        break;
      case "file":
        content.push(filePart(part));
        break;
      case "tool":
        content.push({
          type: "tool-call",
          toolCallId: part.callID,
          toolName: part.tool,
          // The model's history keeps what it wrote, even when a hook changed what ran.
          input: (part.state.status !== "pending" ? part.state.modelInput : undefined) ?? part.state.input,
          ...(replayMetadata && part.providerMetadata ? { providerOptions: part.providerMetadata as never } : {}),
        });
        results.push(toolResult(part));
        break;
      default:
        break;
    }
  }
  if (content.length > 0) out.push({ role: "assistant", content });
  if (results.length > 0) out.push({ role: "tool", content: results } satisfies ToolModelMessage);
  return out;
}

function toolResult(part: ToolPart): ToolResultPart {
  const base = { type: "tool-result" as const, toolCallId: part.callID, toolName: part.tool };
  const state = part.state;
  switch (state.status) {
    case "completed":
      if (state.time.compacted) return { ...base, output: { type: "text", value: COMPACTED_TOOL_RESULT } };
      if (state.attachments?.length) {
        return {
          ...base,
          output: { type: "content", value: [{ type: "text", text: state.output }, ...state.attachments.map(attachment)] },
        };
      }
      return { ...base, output: { type: "text", value: state.output } };
    case "error":
      return { ...base, output: { type: "error-text", value: state.error } };
    default:
      return { ...base, output: { type: "error-text", value: INTERRUPTED_TOOL_RESULT } };
  }
}

function attachment(file: ToolAttachment) {
  const data = parseDataUrl(file.url);
  if (data !== undefined) {
    return {
      type: "file" as const,
      mediaType: file.mime,
      data: { type: "data" as const, data },
      ...(file.filename ? { filename: file.filename } : {}),
    };
  }
  return { type: "file" as const, mediaType: file.mime, data: { type: "url" as const, url: new URL(file.url) } };
}
