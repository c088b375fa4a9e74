// The TypeScript code blocks of the documentation, as modules a consumer would write. Each ```ts
// block becomes a module of its own (so blocks bring their imports); a block opened with
// ```ts continued is appended to the block before it in the same file.
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";

/** The Markdown files whose ```ts blocks are checked: the root README, docs/ and every package's README. */
export function documentationFiles(root, packageDirs) {
  const docs = join(root, "docs");
  return [
    join(root, "README.md"),
    ...(existsSync(docs) ? readdirSync(docs).filter((f) => f.endsWith(".md")).sort().map((f) => join(docs, f)) : []),
    ...packageDirs.map((dir) => join(dir, "README.md")).filter((file) => existsSync(file)),
  ];
}

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

/** The first ```ts block under a Markdown heading (e.g. "Quick start"), as text. */
export function snippetUnder(markdown, heading) {
  const at = markdown.search(new RegExp(`^#+\\s+${heading}\\s*$`, "m"));
  if (at < 0) throw new Error(`no "${heading}" heading`);
  const [first] = extractSnippets(markdown.slice(at));
  if (!first) throw new Error(`no TypeScript block under "${heading}"`);
  return first.code.join("\n");
}

/**
 * Writes every snippet of `files` into `dir` as `<name>-NNN.ts` modules and returns where each
 * generated line came from (file → { from, line } per line), to report errors at their Markdown line.
 */
export function writeSnippets(root, files, dir) {
  const origins = new Map();
  let count = 0;
  for (const file of files) {
    const name = relative(root, file).replace(/[^a-zA-Z0-9]+/g, "-").replace(/-md$/, "");
    let current;
    for (const snippet of extractSnippets(readFileSync(file, "utf8"))) {
      if (!snippet.continued || !current) {
        current = { path: join(dir, `${name}-${String(++count).padStart(3, "0")}.ts`), lines: [], map: [] };
        origins.set(current.path, current);
      }
      snippet.code.forEach((code, index) => {
        current.lines.push(code);
        current.map.push({ from: relative(root, file), line: snippet.line + index });
      });
    }
  }
  // Every block is a module, so top-level await works and names do not clash between blocks.
  for (const { path, lines } of origins.values()) writeFileSync(path, `${lines.join("\n")}\nexport {};\n`);
  return origins;
}

/** Rewrites tsc's "<snippet>.ts(line,col): error …" lines to the Markdown file and line they came from. */
export function mapErrors(output, origins, resolvePath) {
  return output.split("\n").map((line) => {
    const match = /^(.*?\.ts)\((\d+),(\d+)\): (.*)$/.exec(line);
    const origin = match && origins.get(resolvePath(match[1]));
    const at = origin?.map[Number(match[2]) - 1];
    return at ? `${at.from}:${at.line}:${match[3]} ${match[4]}` : line;
  });
}
