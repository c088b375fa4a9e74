import type { LanguageModel } from "ai";
import type { PermissionRules } from "./agent-permissions.js";
import { InvalidInputError } from "../errors.js";
import type { CacheSetting } from "../context/cache-options.js";
import { PLAN_FILES, PLAN_RULES } from "./permission-mode.js";

export { PLAN_FILES } from "./permission-mode.js";

/** Where an agent may be used: as the agent of a prompt, as a subagent of the task tool, or both. */
export type AgentMode = "primary" | "subagent" | "all";

/** An agent: a prompt, a model and settings, rules and tool switches. */
export interface AgentDefinition {
  name: string;
  /** What the agent is for; subagents' descriptions are shown to the model in the task tool. */
  description: string;
  mode: AgentMode;
  /** Instructions added to the system prompt after Lathe's base prompt. */
  prompt?: string;
  /** The model this agent uses; default the agent's model. */
  model?: LanguageModel;
  temperature?: number;
  topP?: number;
  /** The most steps one prompt of this agent may take. */
  steps?: number;
  /** Prompt caching for this agent's requests, over `createAgent`'s, field by field; see {@link CacheSetting}. */
  cache?: CacheSetting;
  /**
   * This agent's permission rules. For the built-in agents they are the agent layer (before the
   * host's global rules); for an agent the host defines or overrides, the host's per-agent layer
   * (after them).
   */
  permission?: PermissionRules;
  /** Tools switched on or off by name (`{ bash: false }`); absent tools keep their default. */
  tools?: Record<string, boolean>;
  /** Internal agents (compaction, title) are hidden from hosts' agent lists and from the task tool. */
  hidden?: boolean;
  /** The skills this agent sees: all (default), none (`false`), those matching these name patterns, or patterns switched on and off (`{ "deploy-*": false }`). */
  skills?: boolean | string[] | Record<string, boolean>;
}

/** What a host may say about an agent: every field optional for a built-in, required ones for a new agent. */
export type AgentConfig = Partial<Omit<AgentDefinition, "name">>;

/** Lathe's built-in agents. */
export const BUILTIN_AGENTS: Readonly<Record<string, AgentDefinition>> = Object.freeze({
  build: {
    name: "build",
    description: "The default agent: reads, edits and runs code to carry out the user's request.",
    mode: "primary",
  },
  plan: {
    name: "plan",
    description: "Plans changes without making them: reads and searches, and writes plans only under .lathe/plans/.",
    mode: "primary",
    prompt:
      "You are in plan mode. Investigate and write a plan; do not change the user's files. " +
      `You may only create or edit plan files matching ${PLAN_FILES}.`,
    // Shell commands can change files too: in plan mode each one is asked.
    permission: PLAN_RULES,
  },
  explore: {
    name: "explore",
    description:
      "A fast read-only agent for exploring a codebase: finds files by pattern, searches code, reads files and answers questions about them.",
    mode: "subagent",
    prompt:
      "You are a read-only search agent. Find what was asked with glob, grep, list and read, then answer concisely " +
      "with file paths and line numbers. Do not try to change anything.",
  },
  general: {
    name: "general",
    description: "A general-purpose agent for multi-step research and changes, handed a self-contained task.",
    mode: "subagent",
    // Subagents do not start tasks of their own unless the host's rules allow it.
    permission: { task: "deny", "todo*": "deny" },
  },
  compaction: {
    name: "compaction",
    description: "Summarises a long session so it fits the model's context.",
    mode: "primary",
    hidden: true,
    permission: { "*": "deny" },
  },
  title: {
    name: "title",
    description: "Writes a short title for a session.",
    mode: "primary",
    hidden: true,
    permission: { "*": "deny" },
  },
});

/** The agents of one Lathe agent instance: the built-ins, overridden or extended by the host's. */
export class AgentRegistry {
  private readonly agents = new Map<string, AgentDefinition>();
  /** Rules of the built-in layer, by agent name (only where a built-in defines them). */
  readonly agentLayer = new Map<string, PermissionRules>();
  /** The host's per-agent rules, by agent name. */
  readonly hostLayer = new Map<string, PermissionRules>();

  constructor(host: Record<string, AgentConfig> = {}) {
    for (const [name, agent] of Object.entries(BUILTIN_AGENTS)) {
      this.agents.set(name, agent);
      if (agent.permission) this.agentLayer.set(name, agent.permission);
    }
    for (const [name, config] of Object.entries(host)) {
      const base = this.agents.get(name);
      if (!base && !config.description) throw new InvalidInputError(`Agent "${name}" needs a description.`);
      const { permission, ...rest } = config;
      this.agents.set(name, { ...(base ?? { mode: "all" as const }), ...rest, name, description: rest.description ?? base!.description } as AgentDefinition);
      if (permission) this.hostLayer.set(name, permission);
    }
  }

  /** The agent of that name. */
  get(name: string): AgentDefinition {
    const agent = this.agents.get(name);
    if (!agent) {
      const known = [...this.agents.values()].filter((a) => !a.hidden).map((a) => a.name);
      throw new InvalidInputError(`There is no agent named "${name}". Known agents: ${known.join(", ")}.`);
    }
    return agent;
  }

  has(name: string): boolean {
    return this.agents.has(name);
  }

  /** Agents hosts and models may see (not the hidden ones). */
  list(): AgentDefinition[] {
    return [...this.agents.values()].filter((a) => !a.hidden);
  }

  /** Agents the task tool may start. */
  subagents(): AgentDefinition[] {
    return this.list().filter((a) => a.mode !== "primary");
  }
}
