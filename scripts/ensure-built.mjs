#!/usr/bin/env node
// Builds the packages when a program is about to import them by name and one is missing its dist/
// (a fresh clone) or has sources newer than its build. Used by `npm run demo`, `npm run example` and
// the consumer check.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const packages = join(root, "packages");

function newest(dir) {
  let time = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    time = Math.max(time, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return time;
}

const stale = readdirSync(packages).filter((name) => {
  const built = join(packages, name, "dist", "index.js");
  return !existsSync(built) || newest(join(packages, name, "src")) > statSync(built).mtimeMs;
});
if (stale.length > 0) {
  console.log(`Building the packages first (${stale.join(", ")} not built or out of date)…`);
  const result = spawnSync("npm", ["run", "build"], { cwd: root, stdio: ["ignore", "ignore", "inherit"] });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
