import { INTERRUPTED_TOOL_RESULT, type MessageWithParts, type Part } from "@lathe/message";
import type { WriteBatch } from "@lathe/storage";
import { erroredState } from "./tool-state.js";

/**
 * Finds assistant messages a dead process left unfinished (no completion time) and finishes them:
 * unfinished tool calls become error results, the message ends as aborted. Returns the writes that
 * repair storage, or undefined when nothing needed repair. The repaired objects are changed in place.
 */
export function repairInterrupted(messages: MessageWithParts[], now = Date.now()): WriteBatch | undefined {
  const batch: Required<Pick<WriteBatch, "messages" | "parts">> = { messages: [], parts: [] };
  for (const { info, parts } of messages) {
    if (info.role !== "assistant" || info.time.completed !== undefined) continue;
    for (const part of parts) {
      if (repairPart(part, now)) batch.parts.push(part);
    }
    info.time.completed = now;
    info.finish ??= "aborted";
    info.error ??= { name: "AbortedError", message: "Interrupted: the process running this turn stopped." };
    batch.messages.push(info);
  }
  return batch.messages.length > 0 ? batch : undefined;
}

function repairPart(part: Part, now: number): boolean {
  if (part.type === "tool" && (part.state.status === "pending" || part.state.status === "running")) {
    part.state = erroredState(part.state, INTERRUPTED_TOOL_RESULT, now);
    return true;
  }
  if ((part.type === "text" || part.type === "reasoning") && part.time && part.time.end === undefined) {
    part.time.end = now;
    return true;
  }
  return false;
}
