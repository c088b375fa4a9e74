#!/usr/bin/env node
// Publishes the @lathe/* packages: builds them, then `changeset publish` uploads every package whose
// version is not on npm yet and tags it in git. Versions and changelogs come first, from
// `npm run version-packages` (changeset version).
//
//   npm run release               build and publish
//   npm run release -- --dry-run  everything but the upload: the pending changesets are valid and
//                                 each package packs and passes `npm publish --dry-run` (run by CI;
//                                 builds only what is missing or stale)
import { spawnSync } from "node:child_process";
import { join, relative } from "node:path";
import { publishablePackages, root } from "./workspace-packages.mjs";

const dryRun = process.argv.includes("--dry-run");

function run(command, args) {
  console.log(`$ ${[command, ...args].join(" ")}`);
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const changeset = join(root, "node_modules", "@changesets", "cli", "bin.js");
if (dryRun) {
  run(process.execPath, [join(root, "scripts", "ensure-built.mjs")]);
  run(process.execPath, [changeset, "status"]);
  for (const { dir } of publishablePackages()) run("npm", ["publish", "--dry-run", "--ignore-scripts", "--workspace", relative(root, dir)]);
} else {
  run("npm", ["run", "build"]);
  run(process.execPath, [changeset, "publish"]);
}
