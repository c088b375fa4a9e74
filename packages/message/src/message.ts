import { z } from "zod";
import { MessageError } from "./error.js";
import { TokenUsage } from "./usage.js";

/** Which model a message was made with or asks for. */
export const ModelRef = z.object({ providerID: z.string(), modelID: z.string() });
/** Which model a message was made with or asks for. */
export type ModelRef = z.infer<typeof ModelRef>;

/**
 * The permission mode a message was answered under (see `PermissionMode` of `@lathe/permission`):
 * `default`, `acceptEdits`, `plan` or `bypass`.
 */
export const PermissionModeName = z.enum(["default", "acceptEdits", "plan", "bypass"]);
/** The permission mode a message was answered under. */
export type PermissionModeName = z.infer<typeof PermissionModeName>;

/** What the user (or the host on their behalf) said. The content is in its parts. */
export const UserMessage = z.object({
  id: z.string(),
  sessionID: z.string(),
  role: z.literal("user"),
  time: z.object({ created: z.number() }),
  /** The agent that answers this message. */
  agent: z.string(),
  /** The model asked for, when the prompt named one. */
  model: ModelRef.optional(),
  /** Extra system instructions given with this prompt. */
  system: z.string().optional(),
  /** The permission mode active when the prompt started; absent in messages stored before modes existed. */
  mode: PermissionModeName.optional(),
  /**
   * The environment the prompt started in (date, workspace listing…), sent to the model after the
   * message's content. Set only when it changed since the last one the model saw, and never changed
   * after: what was sent stays byte for byte the same, so a provider's prompt cache keeps holding.
   */
  environment: z.string().optional(),
  /**
   * Set on a message sent while a turn ran and steered into it (`whileBusy: "steer"`): the turn
   * answering it began before it, so a later user message like this one does not end that turn.
   */
  steered: z.boolean().optional(),
});
/** What the user said. */
export type UserMessage = z.infer<typeof UserMessage>;

/**
 * How an assistant message ended: the AI SDK's finish reasons (`stop`, `length`, `content-filter`,
 * `tool-calls`, `error`, `other`) plus Lathe's own `aborted` (the run was stopped) and `budget`
 * (a limit on steps, tokens or cost was reached).
 */
export const FinishReason = z.string();
/** How an assistant message ended. */
export type FinishReason = z.infer<typeof FinishReason>;

/** The model's answer to a user message: one or more steps, the content in its parts. */
export const AssistantMessage = z.object({
  id: z.string(),
  sessionID: z.string(),
  role: z.literal("assistant"),
  /** The user message this answers. */
  parentID: z.string(),
  time: z.object({ created: z.number(), completed: z.number().optional() }),
  providerID: z.string(),
  modelID: z.string(),
  agent: z.string(),
  /** The working directory the answer ran in. */
  cwd: z.string(),
  finish: FinishReason.optional(),
  tokens: TokenUsage,
  cost: z.number().nonnegative(),
  /**
   * What prompt caching saved, in US dollars: these tokens' cost had every cache read and write been
   * billed as plain input, less their cost. Negative when the cache writes cost more than the reads
   * saved (a prefix written and never read again). Absent where nothing was counted.
   */
  cacheSaved: z.number().optional(),
  error: MessageError.optional(),
  /** True for the summary written by compaction. */
  summary: z.boolean().optional(),
  /**
   * The structured answer of a prompt given an `output` schema: the final text parsed as JSON and
   * validated against the schema. Absent when the prompt asked for none or no answer validated.
   */
  output: z.unknown().optional(),
});
/** The model's answer to a user message. */
export type AssistantMessage = z.infer<typeof AssistantMessage>;

/** A user or assistant message. */
export const Message = z.discriminatedUnion("role", [UserMessage, AssistantMessage]);
/** A user or assistant message. */
export type Message = z.infer<typeof Message>;
