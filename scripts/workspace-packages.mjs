// The publishable packages of this repository: every workspace the root package.json names (globs
// such as "packages/*" included) whose package.json is not private. New packages count by being
// added to the workspaces, with nothing else to update.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const root = join(dirname(fileURLToPath(import.meta.url)), "..");

/** Each workspace's folder (absolute) and its package.json, in the root's order. */
export function workspaces() {
  const { workspaces: patterns = [] } = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  const dirs = patterns.flatMap((pattern) => {
    if (!pattern.endsWith("/*")) return [join(root, pattern)];
    const parent = join(root, pattern.slice(0, -2));
    return existsSync(parent) ? readdirSync(parent, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => join(parent, e.name)).sort() : [];
  });
  return dirs
    .filter((dir) => existsSync(join(dir, "package.json")))
    .map((dir) => ({ dir, manifest: JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) }));
}

/** The workspaces that are published to npm. */
export function publishablePackages() {
  return workspaces().filter(({ manifest }) => !manifest.private);
}
