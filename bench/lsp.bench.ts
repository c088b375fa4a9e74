// Language servers after edits: an edit's result with the TypeScript server's diagnostics in it, on
// a 200-file project with a warm server (typescript-language-server + typescript from npm), against
// what finding the error otherwise costs (`tsc --noEmit` over the project); and the overhead of an
// edit that introduces no error, LSP on ÷ off, measured in the same run.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { createLsp } from "@lathe/lsp";
import { editTool, recordCurrent, type ToolContext } from "@lathe/tools";
import { medianMs, report } from "./lib/report.ts";

const FILES = 200;
const dir = realpathSync(mkdtempSync(path.join(tmpdir(), "lathe-lsp-bench-")));
mkdirSync(path.join(dir, "src"));
writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions: { strict: true, noEmit: true, target: "es2022", module: "nodenext" }, include: ["src"] }));
writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "bench", type: "module" }));
for (let i = 0; i < FILES; i++) {
  const imports = i === 0 ? "" : `import { value${i - 1} } from "./mod${i - 1}.js";\n`;
  const body = Array.from({ length: 20 }, (_, k) => `export function f${i}_${k}(x: number): number {\n  return x * ${k} + ${i};\n}\n`).join("");
  writeFileSync(path.join(dir, "src", `mod${i}.ts`), `${imports}export const value${i}: number = ${i === 0 ? 1 : `value${i - 1} + 1`};\n${body}`);
}
const target = path.join(dir, "src", `mod${FILES - 1}.ts`);
const line = `export const value${FILES - 1}: number = value${FILES - 2} + 1;`;

const state = new Map<string, unknown>();
const context = (diagnostics?: ReturnType<typeof createLsp>): ToolContext => ({
  sessionID: "ses_bench",
  messageID: "msg_bench",
  callID: "call_bench",
  agent: "build",
  cwd: dir,
  abort: new AbortController().signal,
  ask: async () => {},
  metadata: () => {},
  emit: () => {},
  state: <T>(key: string, init: () => T) => {
    if (!state.has(key)) state.set(key, init());
    return state.get(key) as T;
  },
  ...(diagnostics ? { diagnostics } : {}),
});

const { readFileSync } = await import("node:fs");
/** Replaces `from` by `to` in the target file through the edit tool; returns the tool's output. */
async function edit(ctx: ToolContext, from: string, to: string): Promise<string> {
  await recordCurrent(ctx, target, readFileSync(target, "utf8"));
  return (await editTool.execute({ path: target, oldString: from, newString: to }, ctx)).output;
}

const lsp = createLsp({ timeoutMs: 60_000, formatters: false });
const on = context(lsp);
const off = context();
// Warm the server: open the file and check the project once.
await edit(on, line, line.replace("+ 1", "+ 2"));
await edit(on, line.replace("+ 1", "+ 2"), line);

// 1. An edit that introduces a type error, and its fix, each with diagnostics in the result.
const broken = line.replace(": number = ", ': string = ');
let sawError = false;
const errorRoundTrip = await medianMs(async () => {
  const out = await edit(on, line, broken);
  sawError ||= out.includes("error TS2322");
  await edit(on, broken, line);
}, 9, 2);
if (!sawError) throw new Error("the type error was not reported");
const require = createRequire(import.meta.url);
const tsc = path.join(path.dirname(require.resolve("typescript/package.json")), "bin", "tsc");
const tscMs = await medianMs(() => {
  try {
    execFileSync(process.execPath, [tsc, "-p", dir], { stdio: "ignore" });
  } catch {
    // tsc exits non-zero on errors; the time is what counts.
  }
}, 3, 1);

// 2. An edit that introduces no error: LSP on ÷ off.
const a = line.replace("+ 1", "+ 1 ");
const cleanOn = await medianMs(async () => {
  await edit(on, line, a);
  await edit(on, a, line);
}, 9, 2);
const cleanOff = await medianMs(async () => {
  await edit(off, line, a);
  await edit(off, a, line);
}, 9, 2);

await lsp.close();
rmSync(dir, { recursive: true, force: true });

report(import.meta.url, [
  {
    name: `edit → type error in the result (${FILES}-file TS project, warm server; per edit)`,
    value: errorRoundTrip / 2,
    baseline: "tsc --noEmit over the project",
    baselineValue: tscMs,
    target: "≤ 1,000 ms; well under tsc",
  },
  {
    name: "edit without errors, LSP on (per edit)",
    value: cleanOn / 2,
    baseline: "same edit, LSP off",
    baselineValue: cleanOff / 2,
    note: "the cost of syncing the file and asking tsserver",
  },
]);
