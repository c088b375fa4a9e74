import { existsSync, realpathSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const require = createRequire(import.meta.url);

/** How to run a program: a native executable, or a Node script run with this process's Node. */
export interface Invocation {
  command: string;
  args: string[];
}

function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

/** `file` as an invocation: scripts (`.js`, `.mjs`, `.cjs`) run with `process.execPath`, not whatever `node` is on PATH. */
export function invocation(file: string, args: string[] = []): Invocation {
  const real = realpathSync(file);
  return /\.(c|m)?js$/.test(real) ? { command: process.execPath, args: [real, ...args] } : { command: real, args };
}

/**
 * Whether `dir` is a PATH entry the workspace may control: a relative one (`.`, `node_modules/.bin`,
 * resolved against whatever folder a program starts in) or one inside `workspace`.
 */
function workspaceEntry(dir: string, workspace: string | undefined): boolean {
  if (!path.isAbsolute(dir)) return true;
  if (workspace === undefined) return false;
  const rel = path.relative(path.resolve(workspace), path.resolve(dir));
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

/**
 * The executable `name` on PATH. PATH entries the workspace controls — relative ones, and those
 * inside `workspace` when given — are skipped: a bare name never resolves to a repository's own copy.
 */
export function onPath(name: string, workspace?: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (path.isAbsolute(name)) return isFile(name) ? name : undefined;
  for (const dir of (env.PATH ?? "").split(path.delimiter)) {
    if (!dir || workspaceEntry(dir, workspace)) continue;
    if (isFile(path.join(dir, name))) return path.join(dir, name);
  }
  return undefined;
}

/** PATH without the entries the workspace controls (see {@link onPath}): the PATH of processes started for an untrusted workspace. */
export function hostPath(workspace: string, env: NodeJS.ProcessEnv = process.env): string {
  return (env.PATH ?? "").split(path.delimiter).filter((dir) => dir && !workspaceEntry(dir, workspace)).join(path.delimiter);
}

/** The folders from `from` up to `stop` (both included); only `from` itself when it lies outside `stop`. */
function foldersUpTo(from: string, stop: string): string[] {
  const start = path.resolve(from);
  const end = path.resolve(stop);
  const rel = path.relative(end, start);
  if (rel.startsWith("..") || path.isAbsolute(rel)) return [start];
  const out: string[] = [];
  for (let dir = start; ; dir = path.dirname(dir)) {
    out.push(dir);
    if (dir === end || path.dirname(dir) === dir) return out;
  }
}

/** `node_modules/.bin/<name>` in `from` or a folder above it, never above the workspace root `stop`. */
export function localBin(from: string, name: string, stop: string): string | undefined {
  return foldersUpTo(from, stop).map((dir) => path.join(dir, "node_modules", ".bin", name)).find(isFile);
}

/** `node_modules/<pkg>/<file>` in `from` or above, never above the workspace root `stop`. */
export function localPackageFile(from: string, pkg: string, file: string, stop: string): string | undefined {
  return foldersUpTo(from, stop).map((dir) => path.join(dir, "node_modules", pkg, file)).find((candidate) => existsSync(candidate));
}

/** A file of a package installed beside `@lathe/lsp` (the bundled fallback), if any. */
export function bundledPackageFile(pkg: string, file: string): string | undefined {
  try {
    const candidate = path.join(path.dirname(require.resolve(`${pkg}/package.json`)), file);
    return existsSync(candidate) ? candidate : undefined;
  } catch {
    return undefined;
  }
}

/** The nearest folder at or above `from` (but not above `stop`, when `from` is inside it) holding one of `markers`. */
export function nearestRoot(from: string, markers: readonly string[], stop: string): string | undefined {
  const inside = !path.relative(stop, from).startsWith("..");
  for (let dir = path.resolve(from); ; dir = path.dirname(dir)) {
    if (markers.some((m) => existsSync(path.join(dir, m)))) return dir;
    if ((inside && dir === path.resolve(stop)) || path.dirname(dir) === dir) return undefined;
  }
}
