// The publishable packages of this repository: every workspace the root package.json names (globs
// such as "packages/*" included) whose package.json is not private. New packages count by being
// added to the workspaces, with nothing else to update.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const root = join(dirname(fileURLToPath(import.meta.url)), "..");

/** Each workspace's folder (absolute) and its package.json, in the order `from`'s package.json names them. */
export function workspaces(from = root) {
  const { workspaces: patterns = [] } = JSON.parse(readFileSync(join(from, "package.json"), "utf8"));
  const dirs = patterns.flatMap((pattern) => {
    if (!pattern.endsWith("/*")) return [join(from, pattern)];
    const parent = join(from, pattern.slice(0, -2));
    return existsSync(parent) ? readdirSync(parent, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => join(parent, e.name)).sort() : [];
  });
  return dirs
    .filter((dir) => existsSync(join(dir, "package.json")))
    .map((dir) => ({ dir, manifest: JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) }));
}

/** The workspaces that are published to npm. */
export function publishablePackages(from = root) {
  return workspaces(from).filter(({ manifest }) => !manifest.private);
}
