import { z } from "zod";
import type { Evaluation } from "./evaluate.js";
import { evaluateSpellings } from "./spellings.js";
import type { Action, Rule } from "./rule.js";

/**
 * How much an agent may do without asking, in one word, switchable mid-session:
 * - `default`: the rules as they are;
 * - `acceptEdits`: file edits inside the workspace (an `edit` of a workspace-relative path) that the
 *   rules would ask about are allowed;
 * - `plan`: read-only — nothing beyond what the plan agent's rules allow (edits denied but for plan
 *   files, shell commands asked);
 * - `bypass`: everything allowed, except that `deny` rules still hold and `external_directory` still
 *   asks unless a rule allows it.
 *
 * No mode ever turns a `deny` into anything else.
 */
export const PermissionMode = z.enum(["default", "acceptEdits", "plan", "bypass"]);
/** How much an agent may do without asking; see {@link PermissionMode}. */
export type PermissionMode = z.infer<typeof PermissionMode>;

/** The permission `bypass` keeps asking for unless a rule allows it. */
const OUTSIDE = "external_directory";

const STRICTNESS: Record<Action, number> = { allow: 0, ask: 1, deny: 2 };

/**
 * Decides `permission` for `pattern` under a mode: first the rules (`ruleset`, as `evaluate` does,
 * with the pattern's other `spellings` as `evaluateSpellings` checks them), then the mode on top. A
 * `deny` of the rules is final in every mode. In `plan` mode the stricter of the rules' decision and
 * `planRuleset`'s wins (pass the plan agent's merged ruleset; without it, edits are denied). The
 * returned evaluation names the rule behind the decision when one matched.
 */
export function evaluateWithMode(
  mode: PermissionMode,
  permission: string,
  pattern: string,
  ruleset: readonly Rule[],
  planRuleset?: readonly Rule[],
  spellings: readonly string[] = [],
): Evaluation {
  const base = evaluateSpellings(permission, pattern, spellings, ruleset);
  if (base.action === "deny" || mode === "default") return base;
  switch (mode) {
    case "acceptEdits":
      return permission === "edit" && base.action === "ask" && isWorkspacePath(pattern) ? granted(base, pattern) : base;
    case "bypass":
      return permission === OUTSIDE ? base : granted(base, pattern);
    case "plan": {
      const plan = evaluateSpellings(permission, pattern, spellings, planRuleset ?? PLAN_FALLBACK);
      return STRICTNESS[plan.action] > STRICTNESS[base.action] ? plan : base;
    }
  }
}

/** The mode's own allowance: the action is `allow` for the pattern itself, and no rule decided it. */
function granted(base: Evaluation, pattern: string): Evaluation {
  return { ...base, action: "allow", rule: undefined, index: -1, pattern };
}

/**
 * Whether an `edit` pattern names a file of the workspace that `acceptEdits` may allow: tools ask with
 * workspace-relative paths inside it and absolute ones outside (see the tools' `permissionPath`).
 * Paths in a `.git` folder are left to the rules: a hook or config entry written there runs as code.
 */
function isWorkspacePath(pattern: string): boolean {
  if (pattern === "" || pattern.startsWith("/") || pattern.startsWith("\\") || /^[A-Za-z]:[\\/]/.test(pattern)) return false;
  const segments = pattern.split(/[\\/]/);
  return !segments.includes("..") && !segments.includes(".git");
}

const PLAN_FALLBACK: readonly Rule[] = Object.freeze([Object.freeze({ permission: "edit", pattern: "*", action: "deny" as const })]);
