import type { MessageWithParts } from "./message-with-parts.js";
import { compactionPartOf } from "./model-view.js";

/**
 * Whether a message starts a user turn: a user message that is not a compaction message. The turn
 * is that message with the assistant messages after it.
 */
export function startsTurn(message: MessageWithParts): boolean {
  return message.info.role === "user" && compactionPartOf(message) === undefined;
}
