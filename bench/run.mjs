#!/usr/bin/env node
// Runs every benchmark in bench/ (files named *.bench.ts), one after another so they do not
// compete for the machine's cores. Usage: npm run bench [-- name-filter]
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const filter = process.argv[2];
const files = readdirSync(here).filter((f) => f.endsWith(".bench.ts") && (!filter || f.includes(filter))).sort();
const build = spawnSync("npm", ["run", "build"], { stdio: "inherit", cwd: join(here, "..") });
if (build.status !== 0) process.exit(build.status ?? 1);
let failed = 0;
for (const file of files) {
  const r = spawnSync(process.execPath, ["--expose-gc", join(here, file)], { stdio: "inherit" });
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
