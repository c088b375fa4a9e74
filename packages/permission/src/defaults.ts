import { fromConfig, type PermissionConfig } from "./config.js";
import { merge } from "./evaluate.js";
import type { Rule, Ruleset } from "./rule.js";

/** The built-in agents with a default ruleset. */
export type BuiltInAgent = "build" | "plan" | "explore" | "general";

/** Reading secrets asks; their checked-in examples do not. */
const READ: PermissionConfig[string] = { "*": "allow", "*.env": "ask", "*.env.*": "ask", "*.env.example": "allow" };

/**
 * Writing inside a `.git` folder asks: a hook (`.git/hooks/pre-commit`) or a config entry
 * (`core.hooksPath`, `core.fsmonitor`, an alias) written there runs as code on the next `git`
 * command — the user's as much as the agent's — where no rule sees it. The `.git` file of a worktree
 * or submodule (which says where its repository is) asks too. Patterns cover the workspace's own
 * `.git` and nested ones (submodules, outside paths, which are absolute).
 */
const EDIT: PermissionConfig[string] = { "*": "allow", ".git": "ask", ".git/*": "ask", "*/.git": "ask", "*/.git/*": "ask" };

/**
 * The base layer under every agent: everything allowed, except that repeating the same call three
 * times (`doom_loop`), touching paths outside the workspace (`external_directory`), reading
 * `.env` files (but not `*.env.example`) and writing inside `.git` (hooks and config run as code
 * on the next `git` command) ask.
 */
export const DEFAULT_RULES: Ruleset = freeze(
  fromConfig({ "*": "allow", doom_loop: "ask", external_directory: "ask", read: READ, edit: EDIT }),
);

/**
 * The layer each built-in agent adds on top of {@link DEFAULT_RULES}:
 * - `build`: nothing (all tools, asks as in the defaults);
 * - `plan`: no edits (`edit`, `write`, `multiedit`, `apply_patch` are not offered);
 * - `explore`: read-only tools only (`read`, `grep`, `glob`, `list`, `webfetch`, `sourcegraph`,
 *   `diagnostics`), everything else denied;
 * - `general`: no todo list (`todo*` denied), otherwise as `build`.
 */
export const AGENT_RULES: Readonly<Record<BuiltInAgent, Ruleset>> = Object.freeze({
  build: freeze([]),
  plan: freeze(fromConfig({ edit: "deny" })),
  explore: freeze(
    fromConfig({
      "*": "deny",
      read: READ,
      grep: "allow",
      glob: "allow",
      list: "allow",
      webfetch: "allow",
      sourcegraph: "allow",
      diagnostics: "allow",
      doom_loop: "ask",
      external_directory: "ask",
    }),
  ),
  general: freeze(fromConfig({ "todo*": "deny" })),
});

/** The layers of {@link agentRuleset} after the defaults. */
export interface AgentRulesetLayers {
  /** The agent's own rules. Default: {@link AGENT_RULES} for a built-in agent, none otherwise. */
  agent?: readonly Rule[];
  /** The host's rules for all agents (e.g. `fromConfig(config.permission)`). */
  global?: readonly Rule[];
  /** The host's rules for this agent only. */
  perAgent?: readonly Rule[];
}

/**
 * The full ruleset of an agent, merged in this order (later wins):
 * {@link DEFAULT_RULES} → the agent's rules → the host's global rules → the host's per-agent rules.
 */
export function agentRuleset(name: string, layers: AgentRulesetLayers = {}): Ruleset {
  const own = layers.agent ?? (Object.hasOwn(AGENT_RULES, name) ? AGENT_RULES[name as BuiltInAgent] : []);
  return merge(DEFAULT_RULES, own, layers.global ?? [], layers.perAgent ?? []);
}

function freeze(rules: Ruleset): Ruleset {
  for (const rule of rules) Object.freeze(rule);
  return Object.freeze(rules) as Ruleset;
}
