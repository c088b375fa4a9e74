import type { SteerInbox } from "./steering.js";
import type { LanguageModel } from "ai";
import type { ModelRef } from "@lathe/message";
import type { Storage } from "@lathe/storage";
import type { Tool } from "@lathe/tools";
import type { AgentEvent } from "../events.js";
import type { AgentOptions } from "../options.js";
import type { BudgetTracker } from "../context/budget.js";
import type { ModelFacts } from "../context/model-facts.js";
import type { SessionTitles } from "../session/session-title.js";
import type { AgentPermissions } from "../agents/agent-permissions.js";
import type { AgentRegistry } from "../agents/registry.js";
import type { Hooks } from "../agents/hooks.js";
import type { SessionUpdater } from "../session/session-updater.js";
import type { SessionWriter } from "../session/session-writer.js";
import type { StepSnapshots } from "../session/file-history.js";
import type { AgentSkills } from "../agents/agent-skills.js";
import type { CommandCatalog } from "../agents/command-catalog.js";
import type { Tracing } from "./tracing.js";
import type { SessionHistories } from "./session-history.js";

/** What the loop shares with the agent that owns it: one per agent instance, never global. */
export interface AgentRuntime {
  readonly options: AgentOptions;
  readonly cwd: string;
  /** Lathe's own files; see {@link AgentOptions.dataDir}. */
  readonly dataDir: string;
  /** The host's storage, with this agent's writes followed by {@link histories}. */
  readonly storage: Storage;
  /** The sessions' histories as this agent last loaded them, kept across turns. */
  readonly histories: SessionHistories;
  readonly tools: ReadonlyMap<string, Tool>;
  readonly permissions: AgentPermissions;
  readonly agents: AgentRegistry;
  /** Workspace snapshots around each step (off when the host turned them off). */
  readonly snapshots: StepSnapshots;
  readonly hooks: Hooks | undefined;
  /** The model an agent uses (its own, or the agent instance's). */
  modelFor(agent: string): { model: LanguageModel; ref: ModelRef };
  /** Serialised read-modify-write of session records. */
  readonly updater: SessionUpdater;
  /** The writer of each running session, so approval hooks can store the asking call before waiting. */
  readonly writers: Map<string, SessionWriter>;
  /** The tools an agent is offered: all tools minus those its rules deny outright. */
  toolsFor(agent: string): ReadonlyMap<string, Tool>;
  /** Unique owner name for session leases. */
  readonly leaseOwner: string;
  emit(event: AgentEvent): void;
  /** Per-session state tools keep on the agent. */
  sessionState(sessionID: string): Map<string, unknown>;
  /** What Lathe knows of a model: context window, output limit, prices (built-in table, host's `models` and `prices`). */
  facts(ref: ModelRef): ModelFacts;
  /** Messages steered into each session's running turn, waiting for its next request. */
  readonly steering: SteerInbox;
  /** The budget of each session's running turn, so a subagent's turn chains to its parent's. */
  readonly budgets: Map<string, BudgetTracker>;
  /** The session that started a running subagent session. */
  parentOf(sessionID: string): string | undefined;
  /** Background session titles. */
  readonly titles: SessionTitles;
  /** The skills each agent sees, and the `skill` tool. */
  readonly skills: AgentSkills;
  /** The commands hosts invoke by name. */
  readonly commands: CommandCatalog;
  /** OpenTelemetry spans (no-ops when the host gave no tracer). */
  readonly tracing: Tracing;
}
