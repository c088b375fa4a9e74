import { fromConfig, PermissionMode, type Ruleset } from "@lathe/permission";
import { InvalidInputError } from "../errors.js";

/** Checks a permission mode a host passed, naming where it came from. */
export function parseMode(mode: unknown, where: string): PermissionMode {
  const parsed = PermissionMode.safeParse(mode);
  if (!parsed.success) throw new InvalidInputError(`${where} must be one of ${PermissionMode.options.join(", ")}, got ${JSON.stringify(mode)}.`);
  return parsed.data;
}

/** Where plan files go: the only files the plan agent may edit. */
export const PLAN_FILES = ".lathe/plans/*.md";

/**
 * What planning allows at most: no edits but plan files, and every shell command asked (a command
 * can change files too). The plan agent's own rules, and the restriction `plan` mode and the plan
 * agent put on top of every rule a host sets (see {@link PLAN_RESTRICTION}).
 */
export const PLAN_RULES = Object.freeze({ edit: Object.freeze({ "*": "deny", [PLAN_FILES]: "allow" }), bash: "ask" } as const);

/**
 * What `plan` holds every call to, whatever the host's rules say: the plan agent's built-in rules
 * over an allow-all base (so only edits and shell commands are restricted). It is deliberately not
 * the plan agent's merged ruleset: a host rule such as `edit: "allow"` comes after the agent's rules
 * in that ruleset and would win there, while a mode's restriction is not a rule a later allow can
 * override. The permission engine takes the stricter of this and the rules' decision.
 */
export const PLAN_RESTRICTION: Ruleset = Object.freeze(
  [{ permission: "*", pattern: "*", action: "allow" as const }, ...fromConfig(PLAN_RULES)].map((rule) => Object.freeze(rule)),
) as Ruleset;

/**
 * The mode an agent's calls are decided under in a session whose mode is `mode`: the plan agent
 * always plans (its calls are held to {@link PLAN_RESTRICTION} in `acceptEdits` and `bypass` too),
 * every other agent works under the session's mode.
 */
export function modeForAgent(mode: PermissionMode, agent: string): PermissionMode {
  return agent === "plan" ? "plan" : mode;
}
