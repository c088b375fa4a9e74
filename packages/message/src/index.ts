/**
 * Lathe's message model: sortable ids, the zod schemas of sessions, messages and parts (the single
 * source of their types), and the conversion of stored messages into AI SDK model messages.
 *
 * @module @lathe/message
 */
export { createId, idTimestamp, IdGenerator, ID_PREFIXES, type IdKind } from "./id.js";
export { TokenUsage, emptyTokens, addTokens, subtractTokens, totalTokens } from "./usage.js";
export { MessageError } from "./error.js";
export { Session, StoredRule, StoredPermissionRequest, Todo, RevertState, Limits } from "./session.js";
export { ModelRef, UserMessage, AssistantMessage, Message, FinishReason } from "./message.js";
export {
  TextPart,
  ReasoningPart,
  FilePart,
  ToolAttachment,
  ToolStatePending,
  ToolStateRunning,
  ToolStateCompleted,
  ToolStateError,
  ToolState,
  ToolPart,
  AgentPart,
  SubtaskPart,
  StepStartPart,
  StepFinishPart,
  PatchPart,
  CompactionPart,
  RetryPart,
  Part,
} from "./part.js";
export { MessageWithParts } from "./message-with-parts.js";
export {
  toModelMessages,
  INTERRUPTED_TOOL_RESULT,
  COMPACTED_TOOL_RESULT,
  COMPACTION_PROMPT,
  type ToModelMessagesOptions,
} from "./to-model-messages.js";
