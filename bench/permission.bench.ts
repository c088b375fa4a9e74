// evaluate() against 1,000 rules: median time per call, compared with a naive evaluator that rebuilds
// each rule's regular expressions on every call (OpenCode's approach), in the same run.
import { evaluate, type Rule } from "@lathe/permission";
import { medianMs, report } from "./lib/report.ts";

type Action = Rule["action"];
const actions: Action[] = ["allow", "ask", "deny"];

/** OpenCode-style matching: a fresh RegExp per test. */
function naiveMatch(text: string, pattern: string): boolean {
  let source = pattern.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*").replace(/\?/g, ".");
  if (source.endsWith(" .*")) source = `${source.slice(0, -3)}( .*)?`;
  return new RegExp(`^${source}$`, "s").test(text);
}
function naiveEvaluate(permission: string, pattern: string, rules: readonly Rule[]): Action {
  for (let i = rules.length - 1; i >= 0; i--) {
    const r = rules[i]!;
    if (naiveMatch(permission, r.permission) && naiveMatch(pattern, r.pattern)) return r.action;
  }
  return "ask";
}

/** A realistic mix: bash prefixes, path globs, MCP tools with glob permission names, catch-alls. */
function mixedRules(): Rule[] {
  const rules: Rule[] = [{ permission: "*", pattern: "*", action: "allow" }];
  for (let i = 0; rules.length < 1000; i++) {
    const action = actions[i % 3]!;
    switch (i % 8) {
      case 0: case 1: case 2:
        rules.push({ permission: "bash", pattern: `tool${i} sub${i % 7} *`, action });
        break;
      case 3:
        rules.push({ permission: "edit", pattern: `src/module${i}/*`, action });
        break;
      case 4:
        rules.push({ permission: "read", pattern: `*.ext${i}`, action });
        break;
      case 5:
        rules.push({ permission: `mcp_server${i % 50}_*`, pattern: "*", action });
        break;
      case 6:
        rules.push({ permission: `mcp_server${i % 50}_tool${i}`, pattern: `*query${i}*`, action });
        break;
      default:
        rules.push({ permission: "bash", pattern: `git sub${i} ?x *`, action });
    }
  }
  return rules;
}

function mixedQueries(n: number): [string, string][] {
  const queries: [string, string][] = [];
  for (let i = 0; i < n; i++) {
    const k = (i * 7919) % 1200;
    switch (i % 5) {
      case 0: queries.push(["bash", `tool${k} sub${k % 7} --flag value ${i}`]); break;
      case 1: queries.push(["edit", `src/module${k}/deep/file${i}.ts`]); break;
      case 2: queries.push(["read", `/w/docs/file${i}.ext${k}`]); break;
      case 3: queries.push([`mcp_server${k % 50}_tool${k}`, `a query${k} b`]); break;
      default: queries.push(["bash", `unmatched command ${i} && more`]);
    }
  }
  return queries;
}

/** Worst case for an index: every rule has the same permission and none matches until the first. */
function samePermissionRules(): Rule[] {
  const rules: Rule[] = [{ permission: "bash", pattern: "*", action: "ask" }];
  for (let i = 1; i < 1000; i++) rules.push({ permission: "bash", pattern: `c${i % 26} tool${i} *`, action: actions[i % 3]! });
  return rules;
}

function perCallMicros(fn: (p: string, t: string) => unknown, queries: [string, string][], runs: number) {
  return medianMs(() => {
    for (const [p, t] of queries) fn(p, t);
  }, runs, 2).then((ms) => (ms * 1000) / queries.length);
}

const mixed = mixedRules();
const queries = mixedQueries(20_000);
const naiveQueries = queries.slice(0, 1_000);
// Same decisions from both evaluators, or the comparison means nothing.
for (const [p, t] of naiveQueries) {
  if (evaluate(p, t, mixed).action !== naiveEvaluate(p, t, mixed)) throw new Error(`mismatch for ${p} ${t}`);
}
const fast = await perCallMicros((p, t) => evaluate(p, t, mixed), queries, 15);
const naive = await perCallMicros((p, t) => naiveEvaluate(p, t, mixed), naiveQueries, 5);

const worst = samePermissionRules();
const worstQueries: [string, string][] = Array.from({ length: 20_000 }, (_, i) => ["bash", `c${i % 26} other${i} --x`]);
const worstFast = await perCallMicros((p, t) => evaluate(p, t, worst), worstQueries, 15);
const worstNaive = await perCallMicros((p, t) => naiveEvaluate(p, t, worst), worstQueries.slice(0, 500), 5);

// A throwaway merged array per call (never indexed): the linear fallback with cached matchers.
const layers = [mixed.slice(0, 500), mixed.slice(500)];
const fresh = await perCallMicros((p, t) => evaluate(p, t, [...layers[0]!, ...layers[1]!]), queries.slice(0, 2_000), 5);

report(import.meta.url, [
  { name: "evaluate, 1,000 mixed rules, 20k distinct queries", value: fast, unit: "µs/call", baseline: "re-compile every call", baselineValue: naive, target: "≤ 2 µs/call" },
  { name: "evaluate, 1,000 rules of one permission, no match until the first rule", value: worstFast, unit: "µs/call", baseline: "re-compile every call", baselineValue: worstNaive, target: "≤ 2 µs/call" },
  { name: "evaluate on a fresh 1,000-rule array each call (linear fallback)", value: fresh, unit: "µs/call", baseline: "re-compile every call", baselineValue: naive, note: "includes copying the array" },
]);
