/**
 * Lathe: an embeddable coding-agent engine. `createAgent()` gives sessions that stream a model's
 * answer, run its tool calls with permissions, and keep every step in storage.
 *
 * @module @lathe/core
 */
export { createAgent, Agent, type SessionsApi, type PermissionsApi, type CreateSessionInput } from "./agent.js";
export { Run, type RunResult } from "./run.js";
export type {
  AgentOptions,
  ApproveFn,
  PermissionReply,
  PermissionRequest,
  PromptInput,
  RetryOptions,
  CompactionOptions,
  PromptPartInput,
  PromptOptions,
} from "./options.js";
export type { AgentEvent, AgentEventType, AgentEventOf, AgentEventMap, SessionStatus, PermissionReplyKind } from "./events.js";
export { SessionBusyError, SessionNotFoundError, InvalidInputError, AgentClosedError, NothingToResumeError, BudgetExceededError } from "./errors.js";
export type { PermissionRules } from "./agent-permissions.js";
export { DeniedError, RejectedError, CorrectedError, NotFoundError } from "@lathe/permission";
export { tokensFromUsage, costOf } from "./usage.js";
export { ModelFacts, ModelPrice, ModelPriceTier, BUILTIN_MODELS, BUILTIN_MODELS_DATE, resolveModelFacts } from "./model-facts.js";
export { usableContext, inputLimit, isOverflow, OUTPUT_RESERVE_MAX } from "./overflow.js";
export { isContextOverflow, retryReason } from "./provider-errors.js";
export { retryDelay } from "./retry-delay.js";
export { DEFAULT_MAX_RETRIES, DEFAULT_MAX_RETRY_DELAY_MS } from "./step-attempts.js";
export { SUMMARY_PROMPT, REPLAY_NOTE } from "./compaction.js";
export type { BudgetHit } from "./budget.js";
export { DOOM_LOOP_THRESHOLD } from "./doom-loop.js";
export { MAX_STEPS_PROMPT } from "./system-prompt.js";
export * from "./snapshot/index.js";
export { BUILTIN_AGENTS, PLAN_FILES, type AgentDefinition, type AgentConfig, type AgentMode } from "./agents.js";
export { HookError, type Hooks, type HookSignatures, type HookList, type HookName, type HookContext, type ChatParams } from "./hooks.js";
export { BASE_PROMPTS, INSTRUCTION_FILES, modelFamily, type ModelFamily } from "./system-prompt.js";
