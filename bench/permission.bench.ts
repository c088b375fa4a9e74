// evaluate() against 1,000 rules: median time per call, compared with a naive evaluator that rebuilds
// each rule's regular expressions on every call (OpenCode's approach), in the same run. Shell
// commands: analyzeCommand per typical agent command, compared with tree-sitter parsing alone; and a
// 20-star rule against a 100 KB command, compared with the regular-expression matcher Lathe used
// before (kept below as the baseline).
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import { Language, Parser } from "web-tree-sitter";
import { analyzeCommand, compileWildcard, evaluate, type Rule } from "@lathe/permission";
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

// --- Shell commands -------------------------------------------------------------------------------

/** Commands as agents write them: builds, tests, git, pipes, redirections, heredocs, nested shells. */
const AGENT_COMMANDS = [
  "ls -la", "git status", "git diff --stat HEAD~1", "git log --oneline -20", "git add -A && git commit -m \"fix: handle empty input\"",
  "npm test", "npm run build 2>&1 | tail -40", "npx vitest run src/auth.test.ts", "pnpm -C packages/core exec tsc --noEmit",
  "cargo test --release -- --nocapture", "go test ./... -run TestLogin", "python -m pytest tests/ -x -q",
  "grep -rn \"TODO\" src --include=*.ts | head -20", "grep -E \"a|b\" src/index.ts", "find . -name '*.log' -mtime +7",
  "cat package.json | jq '.scripts'", "sed -n '1,80p' src/main.ts", "mkdir -p build/out && cp dist/*.js build/out/",
  "rm -rf node_modules/.cache", "cd packages/web && npm install", "docker compose up -d db",
  "kubectl get pods -n staging -o wide", "curl -s http://localhost:3000/health | jq .", "echo \"done\" > status.txt",
  "timeout 60 npm test -- --watch=false", "CI=1 npm run lint", "bash -c 'cd src && ls'",
  "cat <<'EOF' > notes.md\n# Notes\nsome text\nEOF", "for f in src/*.ts; do wc -l \"$f\"; done", "git -C ../other log -1",
];

async function treeSitter(): Promise<Parser> {
  const require = createRequire(import.meta.url);
  await Parser.init({ locateFile: () => require.resolve("web-tree-sitter/web-tree-sitter.wasm") });
  const parser = new Parser();
  parser.setLanguage(await Language.load(require.resolve("tree-sitter-bash/tree-sitter-bash.wasm")));
  return parser;
}

const parser = await treeSitter();
const shellOptions = { cwd: "/home/u/ws", home: "/home/u" };
const analyzeMicros = await medianMs(async () => {
  for (const command of AGENT_COMMANDS) await analyzeCommand(command, shellOptions);
}, 31, 5).then((ms) => (ms * 1000) / AGENT_COMMANDS.length);
const parseMicros = await medianMs(() => {
  for (const command of AGENT_COMMANDS) parser.parse(command)?.delete();
}, 31, 5).then((ms) => (ms * 1000) / AGENT_COMMANDS.length);

/** The matcher Lathe used before: the pattern translated to one regular expression. */
function regexWildcard(pattern: string): RegExp {
  let source = pattern.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*").replace(/\?/g, ".");
  if (source.endsWith(" .*")) source = `${source.slice(0, -3)}( .*)?`;
  return new RegExp(`^${source}$`, "s");
}

// A 20-star rule and a 100 KB command it matches (the regex backtracks from the end for each star).
const starRule = `*${Array.from({ length: 19 }, (_, i) => `w${i}`).join("*")}*`;
const longCommand = `echo ${Array.from({ length: 19 }, (_, i) => `w${i} ${"x".repeat(5200)}`).join(" ")}`.slice(0, 100_000);
const matcher = compileWildcard(starRule);
const regex = regexWildcard(starRule);
if (matcher.test(longCommand) !== regex.test(longCommand)) throw new Error("the matchers disagree on the 20-star rule");
const starMicros = (await medianMs(() => matcher.test(longCommand), 51, 5)) * 1000;
const regexStarMicros = (await medianMs(() => regex.test(longCommand), 5, 1)) * 1000;

// The same rule against a command it does not match: the regex backtracks through every split of the
// text between the stars. Run in a worker and stopped after a time limit.
const missCommand = `${longCommand.slice(0, 99_990)} w18 zz`;
const missMicros = (await medianMs(() => compileWildcard(`${starRule}q`).test(missCommand), 51, 5)) * 1000;
const REGEX_LIMIT_MS = 5_000;
const regexMiss = await new Promise<number | undefined>((resolve) => {
  const worker = new Worker(
    `const { parentPort, workerData } = require("node:worker_threads");
     const start = performance.now();
     new RegExp(workerData.source, "s").test(workerData.text);
     parentPort.postMessage(performance.now() - start);`,
    { eval: true, workerData: { source: regexWildcard(`${starRule}q`).source, text: missCommand } },
  );
  const timer = setTimeout(() => void worker.terminate().then(() => resolve(undefined)), REGEX_LIMIT_MS);
  worker.once("message", (ms: number) => {
    clearTimeout(timer);
    void worker.terminate();
    resolve(ms);
  });
});

report(import.meta.url, [
  { name: "evaluate, 1,000 mixed rules, 20k distinct queries", value: fast, unit: "µs/call", baseline: "re-compile every call", baselineValue: naive, target: "≤ 2 µs/call" },
  { name: "evaluate, 1,000 rules of one permission, no match until the first rule", value: worstFast, unit: "µs/call", baseline: "re-compile every call", baselineValue: worstNaive, target: "≤ 2 µs/call" },
  { name: "evaluate on a fresh 1,000-rule array each call (linear fallback)", value: fresh, unit: "µs/call", baseline: "re-compile every call", baselineValue: naive, note: "includes copying the array" },
  { name: `analyzeCommand, ${AGENT_COMMANDS.length} typical agent commands`, value: analyzeMicros, unit: "µs/command", baseline: "tree-sitter parse alone", baselineValue: parseMicros, note: "parse + walk + canonical forms + paths" },
  { name: "20-star rule vs a 100 KB command it matches", value: starMicros, unit: "µs", baseline: "regular-expression matcher", baselineValue: regexStarMicros, target: "< 1,000 µs" },
  {
    name: "20-star rule vs a 100 KB command it does not match",
    value: missMicros,
    unit: "µs",
    baseline: "regular-expression matcher",
    baselineValue: (regexMiss ?? REGEX_LIMIT_MS) * 1000,
    target: "< 1,000 µs",
    note: regexMiss === undefined ? `the regex did not finish within ${REGEX_LIMIT_MS / 1000} s (stopped); its figure is that limit` : "",
  },
]);
