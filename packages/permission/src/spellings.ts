import { type Evaluation, evaluate } from "./evaluate.js";
import type { Action, Rule } from "./rule.js";
import { compileWildcard } from "./wildcard.js";

const STRICTNESS: Record<Action, number> = { allow: 0, ask: 1, deny: 2 };

/**
 * Decides a pattern that has other spellings (a shell command as written, with its executable's
 * folder, with global options set aside, inside its wrappers; see `analyzeCommand`). Safety is
 * asymmetric: the pattern itself is evaluated as {@link evaluate} does, and a `deny` or `ask` rule
 * that matches any spelling and comes after the rule that decided the pattern makes the outcome at
 * least that strict; an `allow` rule counts only when it matches the pattern itself. So a respelling
 * is never decided more permissively than the pattern, and a rule the host wrote for a spelling
 * (`/usr/bin/* : ask`) still holds. The returned `pattern` is the spelling that decided.
 */
export function evaluateSpellings(
  permission: string,
  pattern: string,
  spellings: readonly string[],
  ...rulesets: readonly (readonly Rule[])[]
): Evaluation {
  let best = evaluate(permission, pattern, ...rulesets);
  for (const spelling of spellings) {
    if (spelling === pattern) continue;
    const stricter = lastRestrictingRule(permission, spelling, best.index, rulesets);
    if (stricter && STRICTNESS[stricter.action] > STRICTNESS[best.action]) best = stricter;
  }
  return best;
}

/** The last `deny`/`ask` rule after position `after` matching `text`, as an evaluation. */
function lastRestrictingRule(permission: string, text: string, after: number, rulesets: readonly (readonly Rule[])[]): Evaluation | undefined {
  let offset = 0;
  for (const rules of rulesets) offset += rules.length;
  for (let r = rulesets.length - 1; r >= 0; r--) {
    const rules = rulesets[r]!;
    offset -= rules.length;
    for (let i = rules.length - 1; i >= 0; i--) {
      if (offset + i <= after) return undefined;
      const rule = rules[i]!;
      if (rule.action === "allow") continue;
      if (compileWildcard(rule.permission).test(permission) && compileWildcard(rule.pattern).test(text)) {
        return { action: rule.action, rule, permission, pattern: text, index: offset + i };
      }
    }
  }
  return undefined;
}
