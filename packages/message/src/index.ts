/**
 * Lathe's message model: sortable ids, the zod schemas of sessions, messages and parts (the single
 * source of their types), the conversion of stored messages into AI SDK model messages, and the pure
 * pieces of compaction: the model's view of a compacted history, token estimates, prune and tail
 * selection.
 *
 * @module @lathe/message
 */
export { createId, idTimestamp, IdGenerator, ID_PREFIXES, type IdKind } from "./id.js";
export { TokenUsage, emptyTokens, addTokens, subtractTokens, totalTokens } from "./usage.js";
export { usageOfParts, type PartsUsage } from "./message-usage.js";
export { MessageError } from "./error.js";
export { Session, QueuedPrompt, StoredRule, StoredPermissionRequest, Todo, RevertState, Limits } from "./session.js";
export { ModelRef, UserMessage, AssistantMessage, Message, FinishReason, PermissionModeName } from "./message.js";
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
  ModelMessageCache,
  type ToModelMessagesOptions,
} from "./to-model-messages.js";
export { modelView } from "./model-view.js";
export { estimateTokens, estimatePartTokens, estimateMessagesTokens } from "./estimate-tokens.js";
export { selectPrunable, type PruneOptions, type PruneSelection } from "./prune.js";
export { selectTail, tailBudget, type TailOptions } from "./tail.js";
export { InvalidCountError } from "./option-error.js";
