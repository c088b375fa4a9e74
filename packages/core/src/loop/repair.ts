import { INTERRUPTED_TOOL_RESULT, usageOfParts, type Message, type MessageWithParts, type Part, type PartsUsage, type Session } from "@lathe/message";
import { addUsage } from "./turn-usage.js";
import { erroredState } from "./tool-state.js";

/** What crash repair changes: messages finished, parts ended, and usage the session's totals lack. */
export interface Repair {
  messages: Message[];
  parts: Part[];
  /** Usage of assistant messages the session's totals do not include yet, in message order. */
  uncounted: { messageID: string; usage: PartsUsage }[];
}

/**
 * Finds what a dead process left behind and says how to repair it:
 * - assistant messages left unfinished (no completion time) are finished: unfinished tool calls become
 *   error results, the message ends as aborted, and its usage is what its stored parts record (steps
 *   and billed retries; the message's own totals may lag them);
 * - assistant messages the session's totals do not include (unfinished ones, and a completed one whose
 *   process died before the totals were written — see `usage.countedThrough`) are listed with their
 *   usage, to be added with {@link countRepaired}.
 * Returns undefined when nothing needs repair. The repaired objects are changed in place.
 */
export function repairInterrupted(session: Session, messages: MessageWithParts[], now = Date.now()): Repair | undefined {
  const repair: Repair = { messages: [], parts: [], uncounted: [] };
  const through = session.usage.countedThrough;
  for (const { info, parts } of messages) {
    if (info.role !== "assistant") continue;
    const unfinished = info.time.completed === undefined;
    if (unfinished) {
      for (const part of parts) {
        if (repairPart(part, now)) repair.parts.push(part);
      }
      const recorded = usageOfParts(parts);
      info.tokens = recorded.tokens;
      info.cost = recorded.cost;
      if (recorded.cacheSaved) info.cacheSaved = recorded.cacheSaved;
      info.time.completed = now;
      info.finish ??= "aborted";
      info.error ??= { name: "AbortedError", message: "Interrupted: the process running this turn stopped." };
      repair.messages.push(info);
    }
    // Sessions stored before `countedThrough` was kept counted every completed message.
    const counted = through === undefined ? !unfinished : info.id <= through;
    if (!counted) {
      const steps = parts.filter((p) => p.type === "step-finish").length;
      repair.uncounted.push({ messageID: info.id, usage: { tokens: info.tokens, cost: info.cost, steps } });
    }
  }
  return repair.messages.length > 0 || repair.uncounted.length > 0 ? repair : undefined;
}

/** Adds the usage a repair found uncounted to a session's totals. */
export function countRepaired(session: Session, repair: Repair): void {
  for (const { messageID, usage } of repair.uncounted) session.usage = addUsage(session.usage, usage, messageID);
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
