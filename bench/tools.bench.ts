// grep and glob over a generated 20,000-file tree: the pure-Node fallback against ripgrep, same run.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createGlobTool, createGrepTool, locateRipgrep, type ToolContext } from "@lathe/tools";
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
  report(import.meta.url, figures);
} finally {
  rmSync(root, { recursive: true, force: true });
}
