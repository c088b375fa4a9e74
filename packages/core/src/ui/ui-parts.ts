// The pieces of a UI message that the live stream and the stored-history conversion both build, so
// the two agree by construction: tool outputs and approvals, data parts, metadata, finish reasons.
import type { AssistantMessage, Message, Part, ToolState, ToolStateCompleted } from "@lathe/message";
import type { FinishReason } from "ai";
import type { ToolCallApproval } from "../agents/agent-permissions.js";
import type { LatheToolOutput, LatheUIDataTypes, LatheUIMessageMetadata } from "./ui-types.js";

/** The UI `output` of a finished call. */
export function toolOutput(state: ToolStateCompleted): LatheToolOutput {
  return {
    title: state.title,
    output: state.output,
    metadata: state.metadata,
    ...(state.attachments ? { attachments: state.attachments } : {}),
  };
}

/** The user's last answer to an approval request of a call, as the call recorded it. */
export function approvalOf(state: ToolState): ToolCallApproval | undefined {
  const approval = "metadata" in state ? state.metadata?.approval : undefined;
  if (typeof approval !== "object" || approval === null) return undefined;
  const { id, approved, reason } = approval as Record<string, unknown>;
  if (typeof id !== "string" || typeof approved !== "boolean") return undefined;
  return { id, approved, ...(typeof reason === "string" ? { reason } : {}) };
}

/** The UI `approval` of a call that was answered. */
export function uiApproval(approval: ToolCallApproval): { id: string; approved: boolean; reason?: string } {
  return { id: approval.id, approved: approval.approved, ...(approval.reason !== undefined ? { reason: approval.reason } : {}) };
}

/** A data part kept in the message, as `{ type, id, data }`. */
export type LatheDataPart = {
  [K in "patch" | "compaction" | "agent" | "subtask"]: { type: `data-${K}`; id: string; data: LatheUIDataTypes[K] };
}["patch" | "compaction" | "agent" | "subtask"];

/**
 * The data part a Lathe part shows as, for the parts that have no AI SDK counterpart and stay in the
 * message. A retry is not one of them: the failed request it follows is taken back from the message,
 * so the stream sends the retry as a transient part.
 */
export function dataPartOf(part: Part): LatheDataPart | undefined {
  switch (part.type) {
    case "patch":
      return { type: "data-patch", id: part.id, data: { hash: part.hash, files: part.files } };
    case "compaction":
      return { type: "data-compaction", id: part.id, data: { auto: part.auto } };
    case "agent":
      return { type: "data-agent", id: part.id, data: { name: part.name } };
    case "subtask":
      return { type: "data-subtask", id: part.id, data: { prompt: part.prompt, description: part.description, agent: part.agent } };
    default:
      return undefined;
  }
}

/** A message's UI metadata. */
export function messageMetadata(message: Message): LatheUIMessageMetadata {
  const base = { sessionID: message.sessionID, agent: message.agent, createdAt: message.time.created };
  if (message.role === "user") return base;
  return { ...base, ...answerFacts(message) };
}

function answerFacts(message: AssistantMessage): Omit<LatheUIMessageMetadata, "sessionID" | "agent" | "createdAt"> {
  return {
    ...(message.time.completed !== undefined ? { completedAt: message.time.completed } : {}),
    ...(message.finish !== undefined ? { finish: message.finish } : {}),
    providerID: message.providerID,
    modelID: message.modelID,
    tokens: message.tokens,
    cost: message.cost,
    ...(message.error ? { error: message.error } : {}),
    ...(message.summary ? { summary: true } : {}),
  };
}

const AI_FINISH = new Set<string>(["stop", "length", "content-filter", "tool-calls", "error", "other"]);

/**
 * The AI SDK's finish reason for how an answer ended: its own reasons pass, an abort is
 * `interrupted`, a budget reached is `length` (the exact reason stays in the metadata's `finish`).
 */
export function uiFinishReason(finish: string | undefined): FinishReason | "interrupted" | undefined {
  if (finish === undefined) return undefined;
  if (AI_FINISH.has(finish)) return finish as FinishReason;
  if (finish === "aborted") return "interrupted";
  if (finish === "budget") return "length";
  return "other";
}
