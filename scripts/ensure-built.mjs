#!/usr/bin/env node
// Builds the packages when a program is about to import them by name and one is missing its dist/
// (a fresh clone) or has sources newer than its build. Used by the example scripts (`npm run demo`,
// `npm run cli`, `npm run server`, `npm run example`, `npm run web`) and the consumer check.
//
// Only the packages (not the examples) that are stale are built, in workspace order. With
// `--runtime-only` (the examples that only run code) they are built without type declarations, which
// is most of a build's time; a later full check sees the missing declarations and builds them.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const runtimeOnly = process.argv.includes("--runtime-only");

function newest(dir) {
  let time = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    time = Math.max(time, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return time;
}

// The root's workspace list is in dependency order (a package's declarations need those it imports).
const { workspaces } = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const stale = workspaces
  .filter((workspace) => workspace.startsWith("packages/"))
  .filter((workspace) => {
    const built = join(root, workspace, "dist", "index.js");
    if (!existsSync(built)) return true;
    if (!runtimeOnly && !existsSync(join(root, workspace, "dist", "index.d.ts"))) return true;
    return newest(join(root, workspace, "src")) > statSync(built).mtimeMs;
  });
if (stale.length > 0) {
  const names = stale.map((workspace) => workspace.slice("packages/".length)).join(", ");
  console.log(`Building the packages first (${names} not built or out of date)…`);
  const selected = stale.flatMap((workspace) => ["-w", workspace]);
  const result = spawnSync("npm", ["run", "build", ...selected, ...(runtimeOnly ? ["--", "--no-dts"] : [])], {
    cwd: root,
    stdio: ["ignore", "ignore", "inherit"],
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
