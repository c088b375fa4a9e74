import type { MessageError, StoredPermissionRequest, TokenUsage, ToolAttachment, Todo } from "@lathe/message";
import type { UIMessage } from "ai";

/**
 * What a Lathe UI message carries besides its parts (`message.metadata`): whose session and agent it
 * is, when it was made and, for an answer, how it ended, its model, usage and cost.
 */
export interface LatheUIMessageMetadata {
  sessionID: string;
  /** The agent that answered (or is asked). */
  agent: string;
  /** Milliseconds since the epoch. */
  createdAt: number;
  /** When the answer was complete. */
  completedAt?: number;
  /** How the answer ended: the AI SDK's finish reasons plus Lathe's `aborted` and `budget`. */
  finish?: string;
  providerID?: string;
  modelID?: string;
  tokens?: TokenUsage;
  cost?: number;
  /** Why the answer failed, when it did. */
  error?: MessageError;
  /** True for a compaction summary. */
  summary?: boolean;
}

/**
 * The data parts of a Lathe UI message — Lathe's own facts, beside the AI SDK's text, reasoning and
 * tool parts. Kept in the message (and in stored history): `patch` (the files a step changed),
 * `compaction` (in a user message: where history was summarised), `agent` and `subtask` (an
 * `@agent` mention, a task handed to a subagent). Sent as transient parts only (for `useChat`'s
 * `onData`, never kept in the message): `permission` (an approval request with its patterns and
 * metadata — for an edit, the diff), `retry` (a failed request that is retried; its output is taken
 * back), `file-edited`, `todos`, `status` and `compaction` (the session was compacted mid-run).
 */
export interface LatheUIDataTypes {
  [name: string]: unknown;
  patch: { hash: string; files: string[] };
  retry: { attempt: number; error: MessageError; createdAt: number };
  compaction: { auto: boolean };
  agent: { name: string };
  subtask: { prompt: string; description: string; agent: string };
  permission: StoredPermissionRequest;
  "file-edited": { file: string };
  todos: { todos: Todo[] };
  status: { type: string; attempt?: number; next?: number; message?: string };
  /**
   * A message the user sent while the turn ran (`whileBusy: "steer"`), where it entered the turn:
   * the steps after it answer it. Loaded afterwards ({@link toUIMessages}) it is a user message of
   * its own, between the assistant message before it and the one answering it.
   */
  steer: { messageID: string; text: string };
}

/** A Lathe message as the AI SDK's UI shows it (`useChat`'s message type). */
export type LatheUIMessage = UIMessage<LatheUIMessageMetadata, LatheUIDataTypes>;

/** A finished tool call's `output` in a UI tool part: what the tool returned, as stored. */
export interface LatheToolOutput {
  title: string;
  /** The text the model read. */
  output: string;
  /** The tool's metadata: an edit's `diff`, a shell command's `exit`, the user's `approval`… */
  metadata: Record<string, unknown>;
  attachments?: ToolAttachment[];
}
