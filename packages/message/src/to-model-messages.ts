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
      const user = userMessage(info, parts);
      if (user) out.push(user);
    } else {
      out.push(...assistantMessages(info, parts, options.model));
    }
  }
  return out;
}

function userMessage(_info: UserMessage, parts: Part[]): UserModelMessage | undefined {
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

function assistantMessages(info: AssistantMessage, parts: Part[], model: ModelRef | undefined): ModelMessage[] {
  if (info.error && !producedContent(parts)) return [];
  const replayMetadata = sameModel(info, model);
  const out: ModelMessage[] = [];
  let content: AssistantContent = [];
  let results: ToolResultPart[] = [];

  const flush = () => {
    if (content.length > 0) out.push({ role: "assistant", content });
    if (results.length > 0) out.push({ role: "tool", content: results } satisfies ToolModelMessage);
    content = [];
    results = [];
  };

  for (const part of parts) {
    switch (part.type) {
      case "step-start":
        flush();
        break;
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
  flush();
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
