#!/usr/bin/env node
// Type-checks every TypeScript block of README.md, docs/*.md and each package's README the way a
// consumer would meet them: against the packed packages installed into an app outside the
// repository (not the workspace sources), under node16, nodenext and bundler resolution with
// skipLibCheck off. Each ```ts block is a module of its own; ```ts continued appends to the block
// before it. Errors are reported at their line in the Markdown file.
// Usage: node scripts/check-doc-snippets.mjs (`npm run docs:check`; `npm test` runs it as part of
// scripts/consumer-check.mjs, which packs once for all its checks).
import { mkdirSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { inParallel } from "./consumer/parallel.mjs";
import { prepareConsumerApp } from "./consumer/prepare.mjs";
import { documentationFiles, mapErrors, writeSnippets } from "./consumer/snippets.mjs";
import { RESOLUTIONS, typecheck } from "./consumer/typecheck.mjs";
import { publishablePackages, root } from "./workspace-packages.mjs";

/**
 * Type-checks the documentation's snippets, with `extra` files of the app, in `app` under every
 * resolution. Returns the errors (Markdown file:line:col), empty when all pass.
 */
export async function checkDocSnippets(app, extra = []) {
  const dir = join(app, "snippets");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const files = documentationFiles(root, publishablePackages().map(({ dir: packageDir }) => packageDir));
  const origins = writeSnippets(root, files, dir);
  const resolutions = Object.keys(RESOLUTIONS);
  const results = await inParallel(resolutions, (resolution) => typecheck(root, app, resolution, ["snippets/*.ts", ...extra]));
  const errors = results.flatMap(({ ok, output }, i) =>
    ok ? [] : [`under ${resolutions[i]} resolution:`, ...mapErrors(output, origins, (path) => resolve(app, path))],
  );
  return { errors, snippets: origins.size, files: files.length };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { tmp, app } = prepareConsumerApp(root);
  const { errors, snippets, files } = await checkDocSnippets(app);
  rmSync(tmp, { recursive: true, force: true });
  if (errors.length > 0) {
    console.error(`docs: TypeScript snippets do not type-check against the packed packages:\n${errors.join("\n")}`);
    process.exit(1);
  }
  console.log(`docs: ${snippets} TypeScript snippet(s) from ${files} file(s) type-check against the packed packages (${Object.keys(RESOLUTIONS).join(", ")})`);
}
