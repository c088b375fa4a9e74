// The fail-closed shell analysis, its proof and the sandbox, each beside a baseline measured in the
// same run: analyzeCommand per typical agent command against tree-sitter parsing alone; the
// differential test's throughput (generated commands analysed, run under bash with logging shims in
// bubblewrap, and compared) against running the same commands with plain `bash -c`; and sandbox
// start-up per command (`bwrap … bash -c true`, path rules mounted) against plain `bash -c true`.
import { spawnSync } from "node:child_process";
import { createRequire, register } from "node:module";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Language, Parser } from "web-tree-sitter";
import { analyzeCommand } from "@lathe/permission";
import { medianMs, report } from "./lib/report.ts";

// The sandbox, the command grammar and the oracle are internals, imported from their sources.
register("./lib/source-resolve.mjs", import.meta.url);
const { bwrapCommand, probeBwrap } = await import("../packages/tools/src/bash/sandbox.ts");
const { enforcementMounts } = await import("../packages/tools/src/bash/path-enforcement.ts");
const { generateCommands } = await import("../packages/permission/src/bash/shell-grammar.ts");
const { check } = await import("../test/shell-oracle.ts");

const AGENT_COMMANDS = [
  "git status", "git diff --stat", "npm test", "ls -la src", "cat package.json", "rg -n 'TODO' src",
  "npm run build -- --watch", "git log --oneline -n 20", "cd packages/core && npx vitest run src/loop",
  "grep -rn 'export function' src | head -20", "echo done > out.txt 2>&1", "mkdir -p dist && cp a.txt dist/",
];
const options = { cwd: "/home/u/ws", home: "/home/u" };

async function parser(): Promise<Parser> {
  const require = createRequire(import.meta.url);
  const runtime = require.resolve("web-tree-sitter/web-tree-sitter.wasm");
  await Parser.init({ locateFile: () => runtime });
  const language = await Language.load(require.resolve("tree-sitter-bash/tree-sitter-bash.wasm"));
  const p = new Parser();
  p.setLanguage(language);
  return p;
}

const bash = await parser();
for (const command of AGENT_COMMANDS) await analyzeCommand(command, options);
const ROUNDS = 200;
const analyzeMicros = (await medianMs(async () => {
  for (let r = 0; r < ROUNDS; r++) for (const command of AGENT_COMMANDS) await analyzeCommand(command, options);
}, 5, 1)) * 1000 / (ROUNDS * AGENT_COMMANDS.length);
const parseMicros = (await medianMs(() => {
  for (let r = 0; r < ROUNDS; r++) for (const command of AGENT_COMMANDS) bash.parse(command)?.delete();
}, 5, 1)) * 1000 / (ROUNDS * AGENT_COMMANDS.length);

// The differential test's rate, and plain bash running the same commands (no shims, no sandbox).
const DIFF = 1000;
const commands = generateCommands(4242, DIFF);
const diffStart = performance.now();
const result = await check(commands);
const diffRate = DIFF / ((performance.now() - diffStart) / 1000);
const plainDir = mkdtempSync(join(tmpdir(), "lathe-bench-plain-"));
const plainStart = performance.now();
for (const command of commands.slice(0, 200)) {
  const dir = mkdtempSync(join(plainDir, "c-"));
  // Commands that could touch real files run in an empty folder with a PATH holding nothing.
  spawnSync("/bin/bash", ["-c", command], { cwd: dir, env: { PATH: "/nonexistent" }, stdio: "ignore", timeout: 5000 });
}
const plainRate = 200 / ((performance.now() - plainStart) / 1000);
rmSync(plainDir, { recursive: true, force: true });

// Sandbox start-up per command, with the path rules of the fail-closed issue mounted.
const ws = mkdtempSync(join(tmpdir(), "lathe-bench-ws-"));
mkdirSync(join(ws, "secrets"));
writeFileSync(join(ws, ".env"), "SECRET=1\n");
const binary = probeBwrap({ type: "bwrap" });
const mounts = enforcementMounts({ deniedPatterns: (p) => (p === "read" ? ["*.env"] : p === "edit" ? ["secrets/*"] : []) }, ws);
const sandboxed = bwrapCommand(binary, { type: "bwrap" }, "/bin/bash", "true", ws, ws, { mounts });
const sandboxMs = await medianMs(() => spawnSync(sandboxed.file, sandboxed.args, { stdio: "ignore" }), 30, 3);
const plainMs = await medianMs(() => spawnSync("/bin/bash", ["-c", "true"], { stdio: "ignore" }), 30, 3);
rmSync(ws, { recursive: true, force: true });

report(import.meta.url, [
  { name: `analyzeCommand, ${AGENT_COMMANDS.length} typical agent commands (fail-closed subset parser + walk)`, value: analyzeMicros, unit: "µs/command", baseline: "tree-sitter parse alone", baselineValue: parseMicros },
  { name: `differential test, ${DIFF} generated commands (analyse, run under shimmed bash in bwrap, compare)`, value: diffRate, unit: "commands/s", baseline: "plain bash -c, no shims, no sandbox", baselineValue: plainRate, note: `${result.failures.length} failures, ${result.opaque} opaque, ${result.programs} programs run` },
  { name: "sandbox start-up per command (bwrap + path-rule mounts, bash -c true)", value: sandboxMs, unit: "ms", baseline: "plain bash -c true", baselineValue: plainMs },
]);
