// Builders of stored histories for this package's tests (not exported from the package).
import type { AssistantMessage, UserMessage } from "./message.js";
import type { MessageWithParts } from "./message-with-parts.js";
import type { Part, ToolPart } from "./part.js";
import { emptyTokens } from "./usage.js";

const sessionID = "ses_1";
let partCounter = 0;

/** A part of message `messageID` with a fresh id. */
function part(messageID: string, fields: Record<string, unknown>): Part {
  return { id: `prt_${String(++partCounter).padStart(6, "0")}`, sessionID, messageID, ...fields } as Part;
}

/** A user message with text (or no text when `text` is undefined) and more parts. */
export function userMsg(id: string, text: string | undefined, more: Array<Record<string, unknown>> = []): MessageWithParts {
  const info: UserMessage = { id, sessionID, role: "user", time: { created: 1 }, agent: "build" };
  const fields = [...(text === undefined ? [] : [{ type: "text", text }]), ...more];
  return { info, parts: fields.map((f) => part(id, f)) };
}

/** A compaction message C whose tail starts at `tail`. */
export function compactionMsg(id: string, tail?: string): MessageWithParts {
  return userMsg(id, undefined, [{ type: "compaction", auto: true, ...(tail === undefined ? {} : { tail }) }]);
}

/** An assistant message answering `parentID`, completed unless `extra` says otherwise. */
export function assistantMsg(
  id: string,
  parentID: string,
  fields: Array<Record<string, unknown>>,
  extra: Partial<AssistantMessage> = {},
): MessageWithParts {
  const info: AssistantMessage = {
    id,
    sessionID,
    role: "assistant",
    parentID,
    time: { created: 2, completed: 3 },
    providerID: "p",
    modelID: "m",
    agent: "build",
    cwd: "/w",
    tokens: emptyTokens(),
    cost: 0,
    ...extra,
  };
  return { info, parts: fields.map((f) => part(id, f)) };
}

/** A summary S answering compaction `parentID` with `text`. */
export function summaryMsg(id: string, parentID: string, text: string, extra: Partial<AssistantMessage> = {}): MessageWithParts {
  return assistantMsg(id, parentID, [{ type: "step-start" }, { type: "text", text }], { agent: "compaction", summary: true, ...extra });
}

/** The fields of a completed tool call whose output has `outputChars` characters. */
export function toolCall(callID: string, outputChars: number, compacted?: number): Record<string, unknown> {
  return {
    type: "tool",
    callID,
    tool: "read",
    state: {
      status: "completed",
      input: {},
      output: "x".repeat(outputChars),
      title: "t",
      metadata: {},
      time: { start: 1, end: 2, ...(compacted === undefined ? {} : { compacted }) },
    },
  };
}

/** A whole turn: user text `u<n>` then an assistant step with the given tool calls (output sizes in characters). */
export function turn(n: number, outputs: number[] = []): MessageWithParts[] {
  const u = `msg_${String(n).padStart(4, "0")}a`;
  const a = `msg_${String(n).padStart(4, "0")}b`;
  return [
    userMsg(u, `question ${n}`),
    assistantMsg(a, u, [{ type: "step-start" }, ...outputs.map((size, i) => toolCall(`c${n}_${i}`, size)), { type: "text", text: `answer ${n}` }]),
  ];
}

/** The tool parts of messages, in order. */
export function toolParts(messages: MessageWithParts[]): ToolPart[] {
  return messages.flatMap((m) => m.parts.filter((p): p is ToolPart => p.type === "tool"));
}

/** The ids of messages, in order. */
export const ids = (messages: MessageWithParts[]): string[] => messages.map((m) => m.info.id);
