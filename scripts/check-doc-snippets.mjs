#!/usr/bin/env node
// Type-checks every TypeScript code block of README.md and docs/*.md against the workspace packages.
// Each ```ts block becomes a module of its own (so blocks must bring their imports); a block opened
// with ```ts continued is appended to the block before it in the same file. Errors are reported at
// their line in the Markdown file. Run by `npm test`; usage: node scripts/check-doc-snippets.mjs
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(root, "node_modules", ".cache", "lathe-doc-snippets");
const docs = join(root, "docs");
const files = [
  join(root, "README.md"),
  ...(existsSync(docs) ? readdirSync(docs).filter((f) => f.endsWith(".md")).sort().map((f) => join(docs, f)) : []),
];

/** The ```ts blocks of a Markdown text: their code and the line (1-based) where the code starts. */
export function extractSnippets(markdown) {
  const lines = markdown.split("\n");
  const snippets = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,}|~{3,})\s*(ts|typescript)\b(.*)$/.exec(lines[i]);
    if (!open) continue;
    const [, indent, fence, , rest] = open;
    const start = i + 1;
    let end = start;
    while (end < lines.length && !lines[end].trimStart().startsWith(fence)) end++;
    const code = lines.slice(start, end).map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line));
    snippets.push({ line: start + 1, code, continued: /\bcontinued\b/.test(rest) });
    i = end;
  }
  return snippets;
}

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
writeFileSync(join(out, "package.json"), '{ "type": "module" }\n');
// Where each generated line came from: file → [{ from: markdown path, line }].
const origins = new Map();
let count = 0;
for (const file of files) {
  const name = relative(root, file).replace(/[^a-zA-Z0-9]+/g, "-").replace(/-md$/, "");
  let current;
  for (const snippet of extractSnippets(readFileSync(file, "utf8"))) {
    if (!snippet.continued || !current) {
      current = { path: join(out, `${name}-${String(++count).padStart(3, "0")}.ts`), lines: [], map: [] };
      origins.set(current.path, current);
    }
    snippet.code.forEach((code, index) => {
      current.lines.push(code);
      current.map.push({ from: relative(root, file), line: snippet.line + index });
    });
  }
}
for (const { path, lines } of origins.values()) {
  // Every block is a module, so top-level await works and names do not clash between blocks.
  writeFileSync(path, `${lines.join("\n")}\nexport {};\n`);
}
writeFileSync(
  join(out, "tsconfig.json"),
  JSON.stringify(
    {
      extends: relative(out, join(root, "tsconfig.json")),
      compilerOptions: { noEmit: true },
      // The packages' ambient declarations (e.g. text imports), which their sources rely on.
      include: ["*.ts", `${relative(out, join(root, "packages"))}/*/src/**/*.d.ts`],
    },
    null,
    2,
  ),
);

const tsc = join(root, "node_modules", "typescript", "bin", "tsc");
const result = spawnSync(process.execPath, [tsc, "-p", join(out, "tsconfig.json"), "--pretty", "false"], { encoding: "utf8", cwd: root });
const output = `${result.stdout}${result.stderr}`.trim();
if (result.status === 0) {
  console.log(`docs: ${origins.size} TypeScript snippet(s) from ${files.length} file(s) type-check`);
  process.exit(0);
}
// Map "<snippet>.ts(line,col): error …" back to the Markdown file and line.
const mapped = output.split("\n").map((line) => {
  const match = /^(.*?\.ts)\((\d+),(\d+)\): (.*)$/.exec(line);
  const origin = match && origins.get(resolve(root, match[1]));
  const at = origin?.map[Number(match[2]) - 1];
  return at ? `${at.from}:${at.line}:${match[3]} ${match[4]}` : line;
});
console.error(`docs: TypeScript snippets do not type-check:\n${mapped.join("\n")}`);
process.exit(1);
