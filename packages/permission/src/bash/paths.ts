import { dirname, isAbsolute, relative, resolve } from "node:path";

/** Device files that redirections commonly use and that are not really "outside" anything. */
const HARMLESS = new Set(["/dev/null", "/dev/stdin", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/zero", "/dev/random", "/dev/urandom"]);

/** Whether `path` (absolute) is `workspace` or inside it. */
export function isInside(workspace: string, path: string): boolean {
  const rel = relative(workspace, path);
  return rel === "" || (rel !== ".." && !rel.startsWith("../") && !isAbsolute(rel));
}

/**
 * The directory an argument touches, when it lies outside the workspace: the path itself for
 * directory arguments (`cd`, `mkdir`, a trailing `/`, `~`, `.`, `..`), otherwise its parent.
 * `value` has `~` expanded already; `cwd` is the directory it is relative to.
 */
export function outsideDirectory(workspace: string, cwd: string, value: string, isDirectory: boolean): string | undefined {
  const path = resolve(cwd, value);
  if (HARMLESS.has(path) || path.startsWith("/dev/fd/")) return undefined;
  if (isInside(workspace, path)) return undefined;
  const base = value.split("/").at(-1) ?? "";
  const directory = isDirectory || value.endsWith("/") || base === "." || base === ".." || base === "";
  return directory ? path : dirname(path);
}

/** The ask pattern for an outside directory: everything under it. */
export function externalDirectoryPattern(directory: string): string {
  return directory.endsWith("/") ? `${directory}*` : `${directory}/*`;
}

/** Expands a leading `~` or `~/` to `home`; `~user` forms are left alone (they cannot be resolved). */
export function expandTilde(value: string, home: string): string {
  if (value === "~") return home;
  if (value.startsWith("~/")) return home + value.slice(1);
  return value;
}
