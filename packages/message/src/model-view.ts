import type { AssistantMessage } from "./message.js";
import type { MessageWithParts } from "./message-with-parts.js";
import type { CompactionPart } from "./part.js";

/** The compaction part of a user message, when it is a compaction message. */
export function compactionPartOf(message: MessageWithParts): CompactionPart | undefined {
  if (message.info.role !== "user") return undefined;
  for (const part of message.parts) if (part.type === "compaction") return part;
  return undefined;
}

/**
 * Whether a summary attempt made its compaction active: finished, without error, with some text.
 * An aborted or failed attempt, or one still streaming, leaves the history as it was.
 */
function isUsableSummary(message: MessageWithParts): boolean {
  const info = message.info as AssistantMessage;
  if (info.summary !== true || info.time.completed === undefined || info.error) return false;
  return message.parts.some((p) => p.type === "text" && !p.ignored && p.text.trim() !== "");
}

/**
 * The messages the model sees: from the latest active compaction on (its user message, its summary,
 * its verbatim tail, then everything after the summary); the whole history when there is none.
 * Compaction messages that never became active (failed, aborted, unfinished summaries) are left out
 * with their summary attempts. Linear time; returns the same objects (no copies).
 *
 * A compaction is a user message C with a {@link CompactionPart} answered by an assistant message S
 * (`parentID: C.id`, `summary: true`). It is active when S is completed, has no error and has
 * non-empty text. Its verbatim tail is every message with `tail <= id < C.id` (the part's `tail`),
 * shown between S and what follows S — except an answer the compaction interrupted (finish
 * `compacted`) and its request, which is replayed after S. `history` is in id order, as sessions are loaded.
 */
export function modelView(history: MessageWithParts[]): MessageWithParts[] {
  const compactions = new Map<string, number>(); // compaction message id → its index
  const activeSummary = new Map<string, number>(); // compaction message id → index of its usable summary
  for (let i = 0; i < history.length; i++) {
    const message = history[i]!;
    const info = message.info;
    if (info.role === "user") {
      if (compactionPartOf(message)) compactions.set(info.id, i);
    } else if (compactions.has(info.parentID) && isUsableSummary(message)) {
      activeSummary.set(info.parentID, i); // a later attempt that succeeded wins over an earlier one
    }
  }

  // Left out: inactive compaction messages, and every answer to a compaction but its usable summary.
  const shown = (message: MessageWithParts, index: number): boolean => {
    const info = message.info;
    if (info.role === "user") return !compactions.has(info.id) || activeSummary.has(info.id);
    return !compactions.has(info.parentID) || activeSummary.get(info.parentID) === index;
  };

  let latest: { compaction: number; summary: number } | undefined;
  for (const [id, summary] of activeSummary) {
    const compaction = compactions.get(id)!;
    if (!latest || compaction > latest.compaction) latest = { compaction, summary };
  }
  if (!latest) return compactions.size === 0 ? history.slice() : history.filter(shown);

  const compaction = history[latest.compaction]!;
  const view = [compaction, history[latest.summary]!];
  const tail = compactionPartOf(compaction)!.tail;
  if (tail !== undefined) {
    const first = firstIndexAtOrAfter(history, tail, latest.compaction);
    const replayed = replayedInRange(history, first, latest.compaction);
    for (let i = first; i < latest.compaction; i++) if (shown(history[i]!, i) && !replayed.has(history[i]!.info.id)) view.push(history[i]!);
  }
  for (let i = latest.summary + 1; i < history.length; i++) if (shown(history[i]!, i)) view.push(history[i]!);
  return view;
}

/**
 * The ids of the answers a compaction interrupted mid-turn (finish `compacted`) and of the requests
 * they answered, among `history[from..end)`. The summary covers that partial work and the request is
 * replayed after the summary, so a tail must not show either again: the model would read the request
 * twice, and the steps that overflowed the window would still be in it.
 */
function replayedInRange(history: MessageWithParts[], from: number, end: number): Set<string> {
  const ids = new Set<string>();
  for (let i = from; i < end; i++) {
    const info = history[i]!.info;
    if (info.role === "assistant" && info.finish === "compacted") ids.add(info.id).add(info.parentID);
  }
  return ids;
}

/** The index of the first message before `end` whose id is `id` or later (ids sort as strings). */
function firstIndexAtOrAfter(history: MessageWithParts[], id: string, end: number): number {
  let low = 0;
  let high = end;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (history[mid]!.info.id < id) low = mid + 1;
    else high = mid;
  }
  return low;
}
