// What the conversation shows, from what useChat holds. Two sources meet here: the stored history
// (toUIMessages: a message steered into a turn is a user message of its own, between the answer
// before it and the answer after it) and the live UI stream of a running turn (one answer message
// in which a steered message is a `data-steer` part where it entered). A page that rejoins a run
// holds both for one turn, so the stored copies of what the stream shows are left out; and a
// stored message the running turn has not taken yet is shown as waiting, not as answered.
import type { LatheUIDataTypes, LatheUIMessage } from "@lathe/core";

type Steer = LatheUIDataTypes["steer"];

/** One block of the conversation. */
export type TranscriptItem =
  /** A message, or the part of an answer between two steered messages; `steered`: a message shown where it entered the streaming turn. */
  | { kind: "message"; key: string; message: LatheUIMessage; steered: boolean }
  /** A stored user message the running turn has not taken into a request yet. */
  | { kind: "waiting"; key: string; message: LatheUIMessage };

const steersOf = (message: LatheUIMessage): Steer[] =>
  message.role === "assistant" ? message.parts.flatMap((part) => (part.type === "data-steer" ? [part.data as Steer] : [])) : [];

/** The ids of the messages some answer's stream shows where they entered their turn. */
export function steeredIDs(messages: readonly LatheUIMessage[]): Set<string> {
  return new Set(messages.flatMap((message) => steersOf(message).map((steer) => steer.messageID)));
}

/**
 * The conversation to show. `busy`: a turn runs (the page follows it or is about to); `streaming`:
 * it streams into the last answer now. User messages stored after the running answer began wait for
 * the turn's next step.
 */
export function transcript(messages: readonly LatheUIMessage[], { busy, streaming }: { busy: boolean; streaming: boolean }): TranscriptItem[] {
  const steered = steeredIDs(messages);
  // Stored ids are time-ordered: a user message stored after the streaming answer began, and not
  // steered into it yet, waits for its next step — even where a rejoined stream put the answer after it.
  // The running answer: the newest one not finished (a rejoined run's has no parts before its first chunk).
  const live = busy ? messages.findLast((message) => message.role === "assistant" && message.metadata?.finish === undefined) : undefined;
  const sentDuring = (message: LatheUIMessage) =>
    live !== undefined && message.role === "user" && isStoredID(message.id) && isStoredID(live.id) && message.id > live.id && !steered.has(message.id);
  const items: TranscriptItem[] = [];
  // Once a steered message's stored copy is skipped, the stored answers after it are part of the
  // streamed answer too (the turn went on in a new assistant message).
  let skipping = false;
  for (const message of messages) {
    if (sentDuring(message)) continue;
    if (message.role === "user") skipping = steered.has(message.id);
    if (skipping) continue;
    items.push(...split(message));
  }
  for (const message of messages) if (sentDuring(message)) items.push({ kind: "waiting", key: message.id, message });
  if (streaming) {
    // The streaming answer ends with its last part, or with a message steered into it just now.
    const lastAnswer = items.findLastIndex((item) => item.message.role === "assistant" || (item.kind === "message" && item.steered));
    for (let i = lastAnswer + 1; lastAnswer >= 0 && i < items.length; i++) {
      const item = items[i]!;
      if (item.message.role === "user") items[i] = { kind: "waiting", key: item.key, message: item.message };
    }
  }
  return items;
}

/** Whether an id is one Lathe made when it stored the message (`msg_` and time-ordered), not one the page made up. */
const isStoredID = (id: string) => id.startsWith("msg_");

/** An answer with steered messages in it, as answer, user message, answer...; any other message as itself. */
function split(message: LatheUIMessage): TranscriptItem[] {
  // An answer (or a part of one) with nothing to show yet — a step's start only — is left out (the
  // chat says "Working…" instead), unless it says how the answer ended (stopped, failed).
  const ended = message.metadata?.finish === "aborted" || message.metadata?.error !== undefined;
  const blank = (parts: LatheUIMessage["parts"], last: boolean) => message.role === "assistant" && parts.every((part) => part.type === "step-start") && !(last && ended);
  if (steersOf(message).length === 0) return blank(message.parts, true) ? [] : [{ kind: "message", key: message.id, message, steered: false }];
  const items: TranscriptItem[] = [];
  let parts: LatheUIMessage["parts"] = [];
  const flush = (last: boolean) => {
    // The last segment keeps the message's metadata.
    if (blank(parts, last)) return;
    const { metadata: _metadata, ...rest } = message;
    items.push({ kind: "message", key: `${message.id}#${items.length}`, message: { ...(last ? message : rest), parts }, steered: false });
    parts = [];
  };
  for (const part of message.parts) {
    if (part.type !== "data-steer") {
      parts.push(part);
      continue;
    }
    flush(false);
    const steer = part.data as Steer;
    items.push({ kind: "message", key: steer.messageID, message: { id: steer.messageID, role: "user", parts: [{ type: "text", text: steer.text }] }, steered: true });
  }
  flush(true);
  return items;
}
