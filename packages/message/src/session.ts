import { z } from "zod";
import { PermissionModeName } from "./message.js";
import { TokenUsage } from "./usage.js";

/** A permission rule remembered with a session (an `always` answer). */
export const StoredRule = z.object({
  permission: z.string(),
  pattern: z.string(),
  action: z.enum(["allow", "ask", "deny"]),
});
/** A permission rule remembered with a session. */
export type StoredRule = z.infer<typeof StoredRule>;

/** An approval request that waits for the host's answer, stored so it outlives the process. */
export const StoredPermissionRequest = z.object({
  id: z.string(),
  sessionID: z.string(),
  permission: z.string(),
  patterns: z.array(z.string()),
  always: z.array(z.string()),
  metadata: z.record(z.string(), z.unknown()),
  tool: z.object({ messageID: z.string(), callID: z.string() }).optional(),
  /** True when a shell command could not be analysed safely and is asked as a whole. */
  opaque: z.boolean().optional(),
  time: z.object({ created: z.number() }),
});
/** An approval request stored with its session. */
export type StoredPermissionRequest = z.infer<typeof StoredPermissionRequest>;

/** One entry of a session's todo list. */
export const Todo = z.object({
  id: z.string(),
  content: z.string(),
  status: z.enum(["pending", "in_progress", "completed", "cancelled"]),
  priority: z.enum(["high", "medium", "low"]),
});
/** One entry of a session's todo list. */
export type Todo = z.infer<typeof Todo>;

/** Where a session was reverted to, and what is needed to undo the revert. */
export const RevertState = z.object({
  messageID: z.string(),
  partID: z.string().optional(),
  /** Snapshot of the workspace taken before the revert, restored by `unrevert`. */
  snapshot: z.string().optional(),
  /** Unified diff of what the revert undid, for display. */
  diff: z.string().optional(),
});
/** Where a session was reverted to. */
export type RevertState = z.infer<typeof RevertState>;

/**
 * Budgets: a turn ends cleanly (finish `budget`) once one is reached. `maxSteps` counts model
 * requests, `maxTokens` every token reported (input, output, reasoning, cache reads and writes),
 * `maxCostUsd` the cost at the model's prices. Work of subagents counts toward their parent's limits.
 */
export const Limits = z.object({
  maxSteps: z.number().int().positive().optional(),
  maxTokens: z.number().int().positive().optional(),
  maxCostUsd: z.number().positive().optional(),
});
/** Budgets of steps, tokens and cost. */
export type Limits = z.infer<typeof Limits>;

/** A conversation with the agent in one workspace. */
/**
 * A prompt sent with `whileBusy: "queue"` while the session was running another: stored on the
 * session until its own turn starts, when it becomes a user message (with an id made then, so it sorts
 * after the turns before it) and leaves the queue in the same write.
 */
export const QueuedPrompt = z.object({
  /** The entry's own id (the user message gets its id when its turn starts). */
  id: z.string(),
  time: z.number(),
  /** What the user sent: text, files, subtasks. */
  input: z.array(
    z.union([
      z.object({ type: z.literal("text"), text: z.string(), synthetic: z.boolean().optional() }),
      z.object({ type: z.literal("file"), url: z.string(), mime: z.string(), filename: z.string().optional() }),
      z.object({ type: z.literal("subtask"), agent: z.string(), description: z.string(), prompt: z.string() }),
    ]),
  ),
  /** The prompt's options that can be stored; a model, schema or signal lives only in the process that sent it. */
  options: z.object({
    agent: z.string().optional(),
    system: z.string().optional(),
    maxSteps: z.number().int().positive().optional(),
    limits: Limits.optional(),
    mode: PermissionModeName.optional(),
  }),
  /**
   * A command queued (`agent.command` with `whileBusy: "queue"`): expanded — its shell blocks run,
   * its `@file` references read — when its turn comes; `input` is then what the user typed.
   */
  command: z
    .object({
      name: z.string(),
      args: z.union([z.string(), z.array(z.string())]).optional(),
    })
    .optional(),
});
/** A prompt waiting for its own turn; see `Session.queue`. */
export type QueuedPrompt = z.infer<typeof QueuedPrompt>;

export const Session = z.object({
  id: z.string(),
  /** The session that started this one as a subagent task, or that it was forked from. */
  parentID: z.string().optional(),
  /**
   * How a child session came to be: `task` (a subagent's session, owned by its parent and removed
   * with it) or `fork` (an independent copy).
   */
  kind: z.enum(["task", "fork"]).optional(),
  title: z.string(),
  /** The workspace directory the session works in. */
  directory: z.string(),
  time: z.object({
    created: z.number(),
    updated: z.number(),
  }),
  revert: RevertState.optional(),
  /** Tokens and cost of this session, subagent sessions included. */
  usage: z.object({
    tokens: TokenUsage,
    cost: z.number().nonnegative(),
    /**
     * What prompt caching saved this session, in US dollars: the cost of its tokens had every cache
     * read and write been billed as plain input, less their cost (subagent sessions included).
     * Absent in sessions stored before it was counted.
     */
    cacheSaved: z.number().optional(),
    /** Model requests made (steps, summaries and titles included); absent in sessions stored before it was counted. */
    steps: z.number().int().nonnegative().optional(),
    /**
     * The last assistant message whose usage these totals include (`""`: none yet). A message stored
     * as completed after it was cut off before the totals were written, so crash repair adds it
     * then; absent in sessions stored before it was kept.
     */
    countedThrough: z.string().optional(),
  }),
  /** This session's budgets, over the agent's `limits`; totals count from the session's start. */
  limits: Limits.optional(),
  /** Permission state that must survive restarts: `always` answers and unanswered requests. */
  permission: z
    .object({
      approved: z.array(StoredRule),
      pending: z.array(StoredPermissionRequest),
    })
    .optional(),
  todos: z.array(Todo).optional(),
  /** The session's permission mode (`agent.sessions.setMode`); absent means the agent's. */
  mode: PermissionModeName.optional(),
  /**
   * Prompts waiting for their own turn, oldest first (`whileBusy: "queue"`): each leaves the queue
   * as its turn stores it; after a crash `agent.resume` answers them in order.
   */
  queue: z.array(QueuedPrompt).optional(),
  /** Free-form data a host attaches to the session. */
  metadata: z.record(z.string(), z.unknown()).optional(),
});
/** A conversation with the agent in one workspace. */
export type Session = z.infer<typeof Session>;
