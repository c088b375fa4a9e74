import type { MessageWithParts } from "./message-with-parts.js";
import type { FilePart, Part, ToolAttachment, ToolPart } from "./part.js";
import { COMPACTED_TOOL_RESULT, COMPACTION_PROMPT, INTERRUPTED_TOOL_RESULT, TEXT_CARRIED_MIMES } from "./to-model-messages.js";

// Rough figures for deciding before a request (overflow, prune, tail), never for billing: a token is
// about four characters of English or code, and providers bill an image at roughly a thousand tokens.
const CHARS_PER_TOKEN = 4;
const FLAT_FILE_TOKENS = 1_000;

/** Estimated tokens of a text: its length ÷ 4, rounded up. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

/**
 * Estimated tokens the model would be sent for one part, as {@link toModelMessages} would send it:
 *
 * - text (unless `ignored`) and reasoning: their text;
 * - tool: the tool name and the JSON of its input, plus its result: the output and attachments when
 *   completed, {@link COMPACTED_TOOL_RESULT} when compacted, the error when failed,
 *   {@link INTERRUPTED_TOOL_RESULT} when it never finished;
 * - file: the decoded size for a text file in a `data:` URL, a flat 1,000 for images, binaries and
 *   files behind other URLs, nothing for a referenced text file (its synthetic text carries it);
 * - compaction: {@link COMPACTION_PROMPT}; subtask: its description;
 * - anything else (step markers, patches, retries, agent mentions): 0.
 */
export function estimatePartTokens(part: Part): number {
  switch (part.type) {
    case "text":
      return part.ignored ? 0 : estimateTokens(part.text);
    case "reasoning":
      return estimateTokens(part.text);
    case "tool":
      return estimateTokens(part.tool) + estimateTokens(JSON.stringify(part.state.input)) + toolResultTokens(part);
    case "file":
      if (part.source && TEXT_CARRIED_MIMES.has(part.mime)) return 0;
      return fileTokens(part);
    case "compaction":
      return estimateTokens(COMPACTION_PROMPT);
    case "subtask":
      return estimateTokens(part.description) + estimateTokens(part.agent);
    default:
      return 0;
  }
}

/** Estimated tokens the model would be sent for these messages: the sum over their parts. */
export function estimateMessagesTokens(messages: MessageWithParts[]): number {
  let total = 0;
  for (const message of messages) total += estimateMessageTokens(message);
  return total;
}

/** Estimated tokens of one message's parts (and of a user message's environment, sent after them). */
export function estimateMessageTokens(message: MessageWithParts): number {
  let total = message.info.role === "user" && message.info.environment ? estimateTokens(message.info.environment) : 0;
  for (const part of message.parts) total += estimatePartTokens(part);
  return total;
}

/**
 * Estimated tokens of a completed tool call's full result (output and attachments): what marking it
 * compacted takes out of the model's view.
 */
export function toolOutputTokens(part: ToolPart): number {
  const state = part.state;
  if (state.status !== "completed") return 0;
  let total = estimateTokens(state.output);
  for (const file of state.attachments ?? []) total += fileTokens(file);
  return total;
}

function toolResultTokens(part: ToolPart): number {
  const state = part.state;
  switch (state.status) {
    case "completed":
      return state.time.compacted ? estimateTokens(COMPACTED_TOOL_RESULT) : toolOutputTokens(part);
    case "error":
      return estimateTokens(state.error);
    default:
      return estimateTokens(INTERRUPTED_TOOL_RESULT);
  }
}

function fileTokens(file: FilePart | ToolAttachment): number {
  if (file.url.startsWith("file:")) return estimateTokens(file.url); // sent as a short note naming it
  const isText = file.mime.startsWith("text/") || file.mime === "application/json";
  if (!isText || !file.url.startsWith("data:")) return FLAT_FILE_TOKENS;
  return Math.ceil(dataUrlSize(file.url) / CHARS_PER_TOKEN);
}

/** The decoded size in bytes of a `data:` URL's payload, without decoding it. */
function dataUrlSize(url: string): number {
  const comma = url.indexOf(",");
  if (comma < 0) return 0;
  const payload = url.slice(comma + 1);
  if (!url.slice(0, comma).endsWith(";base64")) return Buffer.byteLength(safeDecode(payload));
  const padding = payload.endsWith("==") ? 2 : payload.endsWith("=") ? 1 : 0;
  return Math.max(0, Math.floor((payload.length * 3) / 4) - padding);
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text; // a malformed escape: the raw length is as good an estimate
  }
}
