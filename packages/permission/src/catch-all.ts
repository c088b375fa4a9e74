import type { Action, Rule } from "./rule.js";
import { compileWildcard } from "./wildcard.js";

/**
 * What a permission amounts to for patterns in general: scanning from the newest rule for it,
 * `deny` rules are skipped (they only narrow), an `allow`/`ask` rule means some pattern may pass,
 * and a catch-all `deny` (pattern made only of `*`) means nothing can. Undefined when no rule decides.
 */
export function evaluateCatchAll(permission: string, rulesets: readonly (readonly Rule[])[]): Action | undefined {
  for (let r = rulesets.length - 1; r >= 0; r--) {
    const rules = rulesets[r]!;
    for (let i = rules.length - 1; i >= 0; i--) {
      const rule = rules[i]!;
      if (!compileWildcard(rule.permission).test(permission)) continue;
      if (rule.action !== "deny") return rule.action;
      if (compileWildcard(rule.pattern).kind === "any") return "deny";
    }
  }
  return undefined;
}
