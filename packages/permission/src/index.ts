/**
 * `@lathe/permission` — Lathe's permission engine: rules and wildcard matching, evaluate / merge /
 * explain, the OpenCode config form, default agent rulesets, the ask/reply service, and bash command
 * analysis. Pure: it knows nothing of the agent loop, which composes it.
 *
 * @packageDocumentation
 */
export { Action, Rule, Ruleset } from "./rule.js";
export { compileWildcard, matchWildcard, wildcardToRegExp, type WildcardKind, type WildcardMatcher } from "./wildcard.js";
export { evaluate, explain, merge, type Evaluation } from "./evaluate.js";
export { evaluateSpellings } from "./spellings.js";
export { PermissionMode, evaluateWithMode } from "./mode.js";
export { PermissionConfig, expandHome, fromConfig, type FromConfigOptions } from "./config.js";
export { EDIT_TOOLS, disabled, permissionForTool } from "./tool-permission.js";
export { AGENT_RULES, DEFAULT_RULES, agentRuleset, type AgentRulesetLayers, type BuiltInAgent } from "./defaults.js";
export { CorrectedError, DeniedError, NotFoundError, RefusedError, RejectedError, type RejectReason } from "./errors.js";
export { PermissionRequest, Reply, ToolCallRef } from "./request.js";
export { REQUEST_ID_PREFIX, newRequestId } from "./request-id.js";
export {
  PermissionService,
  type ApproveCallback,
  type AskInput,
  type PermissionServiceOptions,
  type PermissionSessionState,
  type RepliedEvent,
} from "./service.js";
export { ANALYSIS_TIME_BUDGET_MS, MAX_ANALYZED_LENGTH, analyzeCommand, type AnalyzeCommandOptions, type CommandAnalysis, type PathUse } from "./bash/analyze.js";
export { ARITY, alwaysPattern, subcommandWords } from "./bash/arity.js";
export { bashAsks, type AskSpec } from "./bash/asks.js";
export { externalDirectoryPattern, isInside } from "./bash/paths.js";
