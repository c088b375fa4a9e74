import type { Action, Rule, Ruleset } from "./rule.js";
import { lastMatchingRule } from "./ruleset-index.js";

/** The outcome of {@link evaluate}: the action and the rule that decided it. */
export interface Evaluation {
  /** What to do: the deciding rule's action, or `ask` when no rule matched. */
  action: Action;
  /** The last rule whose permission and pattern both matched; undefined when none did. */
  rule: Rule | undefined;
  /** The permission that was evaluated. */
  permission: string;
  /** The pattern (command, path…) that was evaluated. */
  pattern: string;
  /** The deciding rule's position in the concatenation of the rulesets; -1 when none matched. */
  index: number;
}

/** Concatenates rulesets; later rules override earlier ones. */
export function merge(...rulesets: readonly (readonly Rule[])[]): Ruleset {
  return rulesets.flat();
}

/**
 * Decides `permission` for `pattern`: the last rule (across `rulesets` in order, as if merged)
 * whose permission and pattern both match wins; no match means `ask`. Passing the layers as separate
 * arguments is faster than merging them first, because each array's index is reused across calls.
 */
export function evaluate(permission: string, pattern: string, ...rulesets: readonly (readonly Rule[])[]): Evaluation {
  let offset = 0;
  for (const rules of rulesets) offset += rules.length;
  for (let r = rulesets.length - 1; r >= 0; r--) {
    const rules = rulesets[r]!;
    offset -= rules.length;
    const i = lastMatchingRule(rules, permission, pattern);
    if (i >= 0) {
      const rule = rules[i]!;
      return { action: rule.action, rule, permission, pattern, index: offset + i };
    }
  }
  return { action: "ask", rule: undefined, permission, pattern, index: -1 };
}

/**
 * A human-readable account of a decision, for hosts to show why something was allowed, asked or
 * denied. Takes either an {@link Evaluation} or the same arguments as {@link evaluate}.
 */
export function explain(evaluation: Evaluation): string;
export function explain(permission: string, pattern: string, ...rulesets: readonly (readonly Rule[])[]): string;
export function explain(first: Evaluation | string, pattern?: string, ...rulesets: readonly (readonly Rule[])[]): string {
  const e = typeof first === "string" ? evaluate(first, pattern ?? "", ...rulesets) : first;
  const subject = `${e.permission} ${JSON.stringify(e.pattern)}`;
  if (!e.rule) return `${subject}: ask — no rule matches this permission and pattern, so the host is asked.`;
  const { permission, pattern: rulePattern, action } = e.rule;
  return (
    `${subject}: ${action} — decided by rule #${e.index + 1} ` +
    `{ permission: ${JSON.stringify(permission)}, pattern: ${JSON.stringify(rulePattern)}, action: "${action}" }, ` +
    `the last rule matching both.`
  );
}
