/**
 * Lathe: an embeddable coding-agent engine. `createAgent()` gives sessions that stream a model's
 * answer, run its tool calls with permissions, and keep every step in storage.
 *
 * @module @lathe/core
 */
export { createAgent, Agent, type SessionsApi, type PermissionsApi, type CreateSessionInput } from "./agent.js";
export { Run, type RunResult, type StoredPrompt } from "./loop/run.js";
export type {
  AgentOptions,
  ApproveFn,
  HandOffReply,
  HandedOffReply,
  PermissionReply,
  PermissionRequest,
  PromptInput,
  RetryOptions,
  CompactionOptions,
  PromptPartInput,
  PromptOptions,
  WhileBusy,
  TelemetryOptions,
} from "./options.js";
export type { AgentEvent, AgentEventType, AgentEventOf, AgentEventMap, SessionStatus, PermissionReplyKind } from "./events.js";
export { SessionBusyError, PromptDroppedError, SessionNotFoundError, InvalidInputError, FileUrlRefusedError, ApprovalScopeError, AgentClosedError, NothingToResumeError, BudgetExceededError, isOutputValidationError, type OutputValidationError } from "./errors.js";
export { DEFAULT_OUTPUT_REPAIRS, type OutputSchema } from "./loop/structured-output.js";
export type { PermissionRules } from "./agents/agent-permissions.js";
export { WorkspaceTrustSchema, type WorkspaceTrust } from "./agents/workspace-trust.js";
export { DeniedError, RejectedError, CorrectedError, NotFoundError, PermissionMode } from "@lathe/permission";
export { SkillCatalog, SkillFrontMatter, SKILL_FOLDERS, SKILL_FILE, type Skill, type SkillDiscovery, type SkillsOptions } from "./agents/skill-catalog.js";
export { CommandCatalog, CommandFrontMatter, COMMAND_FOLDERS, type Command, type CommandConfig, type CommandDiscovery, type CommandsOptions } from "./agents/command-catalog.js";
export { expandTemplate, splitArguments, shellQuote, commandArguments, type CommandArguments } from "./agents/command-template.js";
export { createSkillTool, skillsSection, listSkillFiles, SKILL_FILE_LIMIT, type SkillsForAgent } from "./agents/skill-tool.js";
export { MAX_DEFINITION_BYTES, DefinitionFileError, splitFrontMatter, readDefinitionFile, type FrontMatterDocument } from "./agents/front-matter.js";
export type { DefinitionOrigin, DefinitionProblem, Enablement } from "./agents/definition-dirs.js";
export type { SkillsApi, CommandsApi } from "./agent.js";
export { tokensFromUsage, costOf, savedByCache } from "./context/usage.js";
export { CacheSetting, CacheOptions, CacheScheme, CacheTtl } from "./context/cache-options.js";
export { providerCaching, type ProviderCaching, type BreakpointCarrier } from "./context/cache-scheme.js";
export { DEFAULT_CACHE_MIN_TOKENS } from "./context/cache-plan.js";
export { placeBreakpoints, MAX_BREAKPOINTS, type BreakpointPlan } from "./context/cache-breakpoints.js";
export { ModelFacts, ModelPrice, ModelPriceTier, BUILTIN_MODELS, BUILTIN_MODELS_DATE, resolveModelFacts } from "./context/model-facts.js";
export { usableContext, inputLimit, isOverflow, OUTPUT_RESERVE_MAX } from "./context/overflow.js";
export { isContextOverflow, retryReason } from "./context/provider-errors.js";
export { retryDelay } from "./context/retry-delay.js";
export { DEFAULT_MAX_RETRIES, DEFAULT_MAX_RETRY_DELAY_MS } from "./loop/step-attempts.js";
export { SUMMARY_PROMPT, REPLAY_NOTE } from "./loop/compaction.js";
export type { BudgetHit } from "./context/budget.js";
export { DOOM_LOOP_THRESHOLD } from "./agents/doom-loop.js";
export { MAX_STEPS_PROMPT } from "./agents/system-prompt.js";
export * from "./snapshot/index.js";
export { BUILTIN_AGENTS, PLAN_FILES, type AgentDefinition, type AgentConfig, type AgentMode } from "./agents/registry.js";
export { HookError, type Hooks, type HookSignatures, type HookList, type HookName, type HookContext, type ChatParams } from "./agents/hooks.js";
export { BASE_PROMPTS, INSTRUCTION_FILES, modelFamily, type ModelFamily } from "./agents/system-prompt.js";
export { toUIMessageStream } from "./ui/ui-message-stream.js";
export { DEFAULT_EVENTS_PER_SESSION, DEFAULT_LOGGED_SESSIONS, type LoggedEvent, type SessionStreamOptions, type EventLogOptions } from "./session/event-log.js";
export { rejoinRun, endsRun, type RejoinedRun } from "./session/rejoined-run.js";
export { toUIMessages, type ToUIMessagesOptions } from "./ui/ui-messages.js";
export { replyToUIApprovals, type UIApprovalResponse, type UIApprovalOutcome } from "./ui/ui-approvals.js";
export type { LatheUIMessageChunk } from "./ui/ui-chunks.js";
export type { LatheUIMessage, LatheUIMessageMetadata, LatheUIDataTypes, LatheToolOutput } from "./ui/ui-types.js";
export type { ToolCallApproval } from "./agents/agent-permissions.js";
