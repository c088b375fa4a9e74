import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fromConfig } from "./config.js";
import { evaluate, explain, merge } from "./evaluate.js";
import type { Rule, Ruleset } from "./rule.js";
import { matchWildcard } from "./wildcard.js";

const rule = (permission: string, pattern: string, action: Rule["action"]): Rule => ({ permission, pattern, action });

describe("evaluate", () => {
  it("asks when nothing matches, with no deciding rule", () => {
    const result = evaluate("bash", "ls", []);
    expect(result.action).toBe("ask");
    expect(result.rule).toBeUndefined();
    expect(evaluate("bash", "ls").action).toBe("ask");
  });

  it("takes the last rule whose permission and pattern both match", () => {
    const rules = [rule("bash", "*", "ask"), rule("bash", "git *", "allow"), rule("bash", "git push *", "deny")];
    expect(evaluate("bash", "git status", rules)).toMatchObject({ action: "allow", rule: rules[1], index: 1 });
    expect(evaluate("bash", "git push origin", rules)).toMatchObject({ action: "deny", rule: rules[2] });
    expect(evaluate("bash", "rm -rf /", rules)).toMatchObject({ action: "ask", rule: rules[0] });
    expect(evaluate("edit", "git status", rules).rule).toBeUndefined();
  });

  it("follows OpenCode's order cases", () => {
    expect(evaluate("bash", "ls", fromConfig({ "*": "deny", bash: "allow" })).action).toBe("allow");
    expect(evaluate("bash", "ls", fromConfig({ bash: "allow", "*": "deny" })).action).toBe("deny");
    expect(evaluate("edit", "a.ts", fromConfig({ "*": "deny", bash: "allow" })).action).toBe("deny");
  });

  it("matches permission names as globs", () => {
    const rules = [rule("mcp_*", "*", "deny"), rule("mcp_github_*", "*", "allow")];
    expect(evaluate("mcp_github_search", "x", rules).action).toBe("allow");
    expect(evaluate("mcp_slack_post", "x", rules).action).toBe("deny");
    expect(evaluate("bash", "x", rules).action).toBe("ask");
  });

  it("treats several rulesets as their concatenation", () => {
    const a = [rule("bash", "*", "deny")];
    const b = [rule("bash", "ls *", "allow")];
    expect(evaluate("bash", "ls -la", a, b)).toMatchObject({ action: "allow", rule: b[0], index: 1 });
    expect(evaluate("bash", "ls -la", b, a)).toMatchObject({ action: "deny", rule: a[0], index: 1 });
    expect(evaluate("bash", "rm", a, b)).toMatchObject({ action: "deny", index: 0 });
  });

  it("merge concatenates in order", () => {
    const a = [rule("a", "*", "allow")];
    const b = [rule("b", "*", "deny"), rule("c", "*", "ask")];
    expect(merge(a, b)).toEqual([...a, ...b]);
    expect(merge()).toEqual([]);
  });

  it("sees rules appended to an array it has indexed before", () => {
    const rules: Ruleset = Array.from({ length: 40 }, (_, i) => rule("bash", `cmd${i} *`, "allow"));
    for (let i = 0; i < 3; i++) expect(evaluate("bash", "rm x", rules).action).toBe("ask");
    rules.push(rule("bash", "rm *", "deny"));
    expect(evaluate("bash", "rm x", rules).action).toBe("deny");
    rules.pop();
    expect(evaluate("bash", "rm x", rules).action).toBe("ask");
  });

  it("indexed lookups agree with a plain last-match scan (property)", () => {
    const permission = fc.constantFrom("bash", "edit", "read", "mcp_x", "*", "mcp_*", "?ash");
    const pattern = fc.constantFrom("*", "ls *", "ls", "git *", "git push *", "*.env", "src/*", "*/x", "?s", "", " *", "l?", "*s*", "l*s", "git ?ush *", "s?c/*", "ls*", "ls ?", "a.env", "*a.env");
    const action = fc.constantFrom("allow" as const, "ask" as const, "deny" as const);
    const rules = fc.array(fc.record({ permission, pattern, action }), { minLength: 16, maxLength: 60 });
    const query = fc.tuple(fc.constantFrom("bash", "edit", "mcp_x", "read"), fc.constantFrom("ls", "ls -la", "", "git push o", "a.env", "src/x", "y/x", "s", "xs"));
    fc.assert(
      fc.property(rules, fc.array(query, { minLength: 1, maxLength: 10 }), (rs, queries) => {
        for (let round = 0; round < 3; round++) {
          for (const [p, t] of queries) {
            let expected = -1;
            for (let i = rs.length - 1; i >= 0; i--) {
              if (matchWildcard(rs[i]!.permission, p) && matchWildcard(rs[i]!.pattern, t)) {
                expected = i;
                break;
              }
            }
            if (evaluate(p, t, rs).index !== expected) return false;
          }
        }
        return true;
      }),
      { numRuns: 300 },
    );
  });
});

describe("explain", () => {
  it("names the deciding rule", () => {
    const rules = fromConfig({ bash: { "*": "allow", "rm *": "deny" } });
    const text = explain("bash", "rm -rf /", rules);
    expect(text).toContain("deny");
    expect(text).toContain('"rm *"');
    expect(text).toContain("#2");
    expect(explain(evaluate("bash", "rm -rf /", rules))).toBe(text);
  });

  it("says when nothing matched", () => {
    expect(explain("edit", "a.ts", [])).toMatch(/ask — no rule matches/);
  });
});

describe("evaluate — indexed rulesets and path wildcards", () => {
  it("an indexed ruleset decides `src/**` and `\\`-separated rules like a linear scan", () => {
    const filler = Array.from({ length: 20 }, (_, i) => ({ permission: "edit", pattern: `pad${i}/*`, action: "ask" as const }));
    const rules = [
      ...filler,
      { permission: "edit", pattern: "src/**", action: "deny" as const },
      { permission: "edit", pattern: "secrets\\*", action: "deny" as const },
      { permission: "edit", pattern: "**/*.env", action: "deny" as const },
    ];
    for (let round = 0; round < 3; round++) {
      expect(evaluate("edit", "src", rules).action).toBe("deny");
      expect(evaluate("edit", "src/a/b.ts", rules).action).toBe("deny");
      expect(evaluate("edit", "secrets/key", rules).action).toBe("deny");
      expect(evaluate("edit", ".env", rules).action).toBe("deny");
      expect(evaluate("edit", "a/b/.env", rules).action).toBe("deny");
      expect(evaluate("edit", "srcx", rules).action).toBe("ask");
    }
  });
});
