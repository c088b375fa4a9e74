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

/** The executable `name` on PATH. */
export function onPath(name: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (path.isAbsolute(name)) return isFile(name) ? name : undefined;
  for (const dir of (env.PATH ?? "").split(path.delimiter)) {
    if (dir && isFile(path.join(dir, name))) return path.join(dir, name);
  }
  return undefined;
}

/** `node_modules/.bin/<name>` in `from` or a folder above it (up to the filesystem root). */
export function localBin(from: string, name: string): string | undefined {
  for (let dir = path.resolve(from); ; dir = path.dirname(dir)) {
    const bin = path.join(dir, "node_modules", ".bin", name);
    if (isFile(bin)) return bin;
    if (path.dirname(dir) === dir) return undefined;
  }
}

/** `node_modules/<pkg>/<file>` in `from` or above. */
export function localPackageFile(from: string, pkg: string, file: string): string | undefined {
  for (let dir = path.resolve(from); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, "node_modules", pkg, file);
    if (existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) return undefined;
  }
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
