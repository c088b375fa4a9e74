import { z } from "zod";
import { MessageError } from "./error.js";
import { TokenUsage } from "./usage.js";

const base = {
  id: z.string(),
  sessionID: z.string(),
  messageID: z.string(),
};

/** Provider-specific data attached to a part (e.g. reasoning signatures), replayed only to the same model. */
const providerMetadata = z.record(z.string(), z.record(z.string(), z.unknown())).optional();

const span = z.object({ start: z.number(), end: z.number().optional() });

/** Text written by the user or the model. `synthetic` text was added by Lathe or the host, not typed. */
export const TextPart = z.object({
  ...base,
  type: z.literal("text"),
  text: z.string(),
  synthetic: z.boolean().optional(),
  /** Kept in history for display but never sent to the model. */
  ignored: z.boolean().optional(),
  time: span.optional(),
  providerMetadata,
});
/** Text written by the user or the model. */
export type TextPart = z.infer<typeof TextPart>;

/** The model's reasoning, when the provider exposes it. */
export const ReasoningPart = z.object({
  ...base,
  type: z.literal("reasoning"),
  text: z.string(),
  time: span,
  providerMetadata,
});
/** The model's reasoning. */
export type ReasoningPart = z.infer<typeof ReasoningPart>;

/** A file: attached by the user, or returned by a tool. `url` is a `data:` URL or a `file:` URL. */
export const FilePart = z.object({
  ...base,
  type: z.literal("file"),
  mime: z.string(),
  filename: z.string().optional(),
  url: z.string(),
  /** Where the file came from, e.g. the workspace path of an `@file` reference. */
  source: z.object({ path: z.string() }).optional(),
});
/** A file attached to a message. */
export type FilePart = z.infer<typeof FilePart>;

/** A file a tool returned with its result, e.g. an image the read tool loaded. */
export const ToolAttachment = z.object({
  mime: z.string(),
  filename: z.string().optional(),
  url: z.string(),
});
/** A file a tool returned with its result. */
export type ToolAttachment = z.infer<typeof ToolAttachment>;

const toolInput = z.record(z.string(), z.unknown());
/**
 * The input as the model sent it, kept only when a `tool.execute.before` hook changed it: `input` is
 * then what the tool ran with (what a UI shows), and the model's history keeps what it wrote.
 */
const modelInput = toolInput.optional();

/** The model is still streaming the call's input. `raw` is the JSON text so far. */
export const ToolStatePending = z.object({
  status: z.literal("pending"),
  input: toolInput,
  raw: z.string(),
});
/** The tool is running. */
export const ToolStateRunning = z.object({
  status: z.literal("running"),
  input: toolInput,
  modelInput,
  title: z.string().optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  time: z.object({ start: z.number() }),
});
/** The tool finished. `time.compacted` marks an output the model no longer sees in full. */
export const ToolStateCompleted = z.object({
  status: z.literal("completed"),
  input: toolInput,
  modelInput,
  output: z.string(),
  title: z.string(),
  metadata: z.record(z.string(), z.unknown()),
  attachments: z.array(ToolAttachment).optional(),
  time: z.object({ start: z.number(), end: z.number(), compacted: z.number().optional() }),
});
/** The tool failed, was rejected, or was interrupted. */
export const ToolStateError = z.object({
  status: z.literal("error"),
  input: toolInput,
  modelInput,
  error: z.string(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  time: z.object({ start: z.number(), end: z.number() }),
});
/** Where a tool call is in its life: pending → running → completed | error. */
export const ToolState = z.discriminatedUnion("status", [
  ToolStatePending,
  ToolStateRunning,
  ToolStateCompleted,
  ToolStateError,
]);
/** Where a tool call is in its life. */
export type ToolState = z.infer<typeof ToolState>;
/** A tool call whose input is still streaming. */
export type ToolStatePending = z.infer<typeof ToolStatePending>;
/** A running tool call. */
export type ToolStateRunning = z.infer<typeof ToolStateRunning>;
/** A finished tool call. */
export type ToolStateCompleted = z.infer<typeof ToolStateCompleted>;
/** A failed tool call. */
export type ToolStateError = z.infer<typeof ToolStateError>;

/** A tool call and its result. */
export const ToolPart = z.object({
  ...base,
  type: z.literal("tool"),
  callID: z.string(),
  tool: z.string(),
  state: ToolState,
  providerMetadata,
});
/** A tool call and its result. */
export type ToolPart = z.infer<typeof ToolPart>;

/** The user named an agent (`@explore`) in a prompt. */
export const AgentPart = z.object({
  ...base,
  type: z.literal("agent"),
  name: z.string(),
  source: z.object({ value: z.string(), start: z.number(), end: z.number() }).optional(),
});
/** The user named an agent in a prompt. */
export type AgentPart = z.infer<typeof AgentPart>;

/** A task handed to a subagent on the user's behalf. */
export const SubtaskPart = z.object({
  ...base,
  type: z.literal("subtask"),
  prompt: z.string(),
  description: z.string(),
  agent: z.string(),
});
/** A task handed to a subagent. */
export type SubtaskPart = z.infer<typeof SubtaskPart>;

/** The start of one model request (a step). `snapshot` is the workspace state when it began. */
export const StepStartPart = z.object({
  ...base,
  type: z.literal("step-start"),
  snapshot: z.string().optional(),
});
/** The start of a step. */
export type StepStartPart = z.infer<typeof StepStartPart>;

/** The end of a step: why it ended, what it used and cost. */
export const StepFinishPart = z.object({
  ...base,
  type: z.literal("step-finish"),
  reason: z.string(),
  snapshot: z.string().optional(),
  tokens: TokenUsage,
  cost: z.number().nonnegative(),
  /**
   * What prompt caching saved, in US dollars: these tokens' cost had every cache read and write been
   * billed as plain input, less their cost. Negative when the cache writes cost more than the reads
   * saved (a prefix written and never read again). Absent where nothing was counted.
   */
  cacheSaved: z.number().optional(),
});
/** The end of a step. */
export type StepFinishPart = z.infer<typeof StepFinishPart>;

/** The files a step changed, whatever changed them, and the snapshot before the step. */
export const PatchPart = z.object({
  ...base,
  type: z.literal("patch"),
  hash: z.string(),
  files: z.array(z.string()),
});
/** The files a step changed. */
export type PatchPart = z.infer<typeof PatchPart>;

/** Marks where a session was compacted: the model's view of history starts here. */
export const CompactionPart = z.object({
  ...base,
  type: z.literal("compaction"),
  /** True when compaction started on its own (overflow), false when asked for. */
  auto: z.boolean(),
  /**
   * The first message kept verbatim after the summary: every message from it up to this compaction
   * is shown to the model after the summary.
   */
  tail: z.string().optional(),
});
/** Marks where a session was compacted. */
export type CompactionPart = z.infer<typeof CompactionPart>;

/** A failed request that was retried. */
export const RetryPart = z.object({
  ...base,
  type: z.literal("retry"),
  attempt: z.number().int().positive(),
  error: MessageError,
  /** What the failed attempt reported using: billed all the same, so it counts toward the message's usage. */
  tokens: TokenUsage.optional(),
  /** The cost of those tokens. */
  cost: z.number().nonnegative().optional(),
  time: z.object({ created: z.number() }),
});
/** A failed request that was retried. */
export type RetryPart = z.infer<typeof RetryPart>;

/** Any piece of a message. */
export const Part = z.discriminatedUnion("type", [
  TextPart,
  ReasoningPart,
  FilePart,
  ToolPart,
  AgentPart,
  SubtaskPart,
  StepStartPart,
  StepFinishPart,
  PatchPart,
  CompactionPart,
  RetryPart,
]);
/** Any piece of a message. */
export type Part = z.infer<typeof Part>;
