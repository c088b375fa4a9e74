// grep and glob over a generated 20,000-file tree: the pure-Node fallback against ripgrep, same run.
// grep with read rules checked per file (a denied .env in every folder) against grep without them.
// Path resolution of a 50-component path, against one realpath(3) call.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { agentRuleset, evaluate, fromConfig } from "@lathe/permission";
import { createGlobTool, createGrepTool, locateRipgrep, realpathLoose, resolveToolPath, type ToolContext } from "@lathe/tools";
import { medianMs, report } from "./lib/report.ts";

const rg = locateRipgrep(undefined);
if (!rg) throw new Error("ripgrep (rg) is not on PATH; the benchmark compares against it");

const root = mkdtempSync(path.join(tmpdir(), "lathe-bench-tools-"));
const FILES = 20_000;
const words = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "theta", "kappa"];
let made = 0;
for (let a = 0; made < FILES; a++) {
  for (let b = 0; b < 20 && made < FILES; b++) {
    const dir = path.join(root, `pkg${a}`, `mod${b}`);
    mkdirSync(dir, { recursive: true });
    for (let c = 0; c < 25 && made < FILES; c++, made++) {
      const lines = Array.from({ length: 30 }, (_, i) => `const ${words[(made + i) % words.length]}${i} = ${made * i}; // line ${i}`);
      if (made % 97 === 0) lines.push("// NEEDLE: find me");
      writeFileSync(path.join(dir, `file${c}.${c % 3 === 0 ? "ts" : c % 3 === 1 ? "js" : "md"}`), lines.join("\n"));
    }
  }
}
writeFileSync(path.join(root, ".gitignore"), "pkg0/\n");
// A secret in every package, which the read rules deny.
for (let a = 0; a * 500 < FILES; a++) writeFileSync(path.join(root, `pkg${a}`, ".env"), "NEEDLE_SECRET=1\n");

const state = new Map<string, unknown>();
const ctx: ToolContext = {
  sessionID: "bench",
  messageID: "bench",
  callID: "bench",
  agent: "build",
  cwd: root,
  abort: new AbortController().signal,
  ask: async () => {},
  metadata: () => {},
  emit: () => {},
  state: <T>(key: string, init: () => T): T => {
    if (!state.has(key)) state.set(key, init());
    return state.get(key) as T;
  },
};

const tools = {
  rg: { glob: createGlobTool({ ripgrep: rg }), grep: createGrepTool({ ripgrep: rg }) },
  node: { glob: createGlobTool({ ripgrep: false }), grep: createGrepTool({ ripgrep: false }) },
};

// The rules of an agent whose host denies .env reads, decided as the loop decides them (no approvals).
const rules = agentRuleset("build", { global: fromConfig({ read: { "*.env": "deny" } }) });
const checked: ToolContext = {
  ...ctx,
  check: (request) => {
    let outcome: "allow" | "ask" | "deny" = "allow";
    for (const pattern of request.patterns) {
      const action = evaluate(request.permission, pattern, rules).action;
      if (action === "deny") return "deny";
      if (action === "ask") outcome = "ask";
    }
    return outcome;
  },
};

try {
  const cases = [
    { name: "glob **/*.ts", run: (t: typeof tools.rg) => t.glob.execute({ pattern: "**/*.ts" }, ctx) },
    { name: "grep NEEDLE", run: (t: typeof tools.rg) => t.grep.execute({ pattern: "NEEDLE" }, ctx) },
    { name: "grep 'kappa\\d+ = \\d+' --include *.ts", run: (t: typeof tools.rg) => t.grep.execute({ pattern: "kappa\\d+ = \\d+", include: "*.ts" }, ctx) },
  ];
  const figures = [];
  for (const c of cases) {
    const [a, b] = [await c.run(tools.node), await c.run(tools.rg)];
    if (a.output !== b.output) throw new Error(`${c.name}: the two backends disagree`);
    const node = await medianMs(() => c.run(tools.node), 5, 1);
    const ripgrep = await medianMs(() => c.run(tools.rg), 5, 1);
    figures.push({ name: `${c.name}, ${FILES} files, pure Node`, value: node, baseline: "ripgrep", baselineValue: ripgrep, target: "≤ 3×" });
  }
  for (const [backend, t] of [["ripgrep", tools.rg], ["pure Node", tools.node]] as const) {
    const on = await t.grep.execute({ pattern: "NEEDLE" }, checked);
    if (!on.output.includes("not searched") || on.output.includes("NEEDLE_SECRET")) throw new Error("grep with read rules did not withhold the .env files");
    const withRules = await medianMs(() => t.grep.execute({ pattern: "NEEDLE" }, checked), 5, 1);
    const without = await medianMs(() => t.grep.execute({ pattern: "NEEDLE" }, ctx), 5, 1);
    figures.push({ name: `grep NEEDLE, ${FILES} files, read rules checked per file (${backend})`, value: withRules, baseline: "same grep without read rules", baselineValue: without, target: "≤ 1.2×" });
  }

  // 50 components: the workspace, then folders that exist, then some that do not (a file to create).
  const deep = path.join(root, "deep");
  mkdirSync(path.join(deep, ...Array.from({ length: 40 - deep.split("/").length + 1 }, (_, i) => `d${i}`)), { recursive: true });
  const existing = realpathSync(path.join(deep, ...Array.from({ length: 40 - deep.split("/").length + 1 }, (_, i) => `d${i}`)));
  const fifty = path.join(existing, ...Array.from({ length: 50 - existing.split("/").length + 1 }, (_, i) => `new${i}`));
  if (fifty.split("/").length - 1 !== 50) throw new Error(`expected 50 components, got ${fifty.split("/").length - 1}`);
  const perCall = async (fn: () => unknown, n = 2000) => (await medianMs(async () => { for (let i = 0; i < n; i++) await fn(); }, 5, 1)) * 1000 / n;
  const baseline = await perCall(() => realpathSync.native(existing));
  figures.push({ name: "resolve a 50-component path (40 existing, 10 to create)", value: await perCall(() => realpathLoose(fifty)), unit: "µs", baseline: "one realpath(3) of its existing part", baselineValue: baseline });
  figures.push({ name: "resolveToolPath, same path, with the workspace check", value: await perCall(() => resolveToolPath(ctx, path.relative(root, fifty))), unit: "µs", baseline: "one realpath(3) of its existing part", baselineValue: baseline });

  report(import.meta.url, figures);
} finally {
  rmSync(root, { recursive: true, force: true });
}
