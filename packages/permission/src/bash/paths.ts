import { dirname, isAbsolute, relative } from "node:path";

/** Device files that redirections commonly use and that are not really "outside" anything. */
const HARMLESS = new Set(["/dev/null", "/dev/stdin", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/zero", "/dev/random", "/dev/urandom"]);

/** Whether `path` (absolute) is `workspace` or inside it. */
export function isInside(workspace: string, path: string): boolean {
  const rel = relative(workspace, path);
  return rel === "" || (rel !== ".." && !rel.startsWith("../") && !isAbsolute(rel));
}

/** Device files (`/dev/null`, `/dev/fd/1`…) that touch no file of anyone's. */
export function isHarmlessDevice(path: string): boolean {
  return HARMLESS.has(path) || path.startsWith("/dev/fd/");
}

/**
 * The folder an absolute path reaches when it lies outside the workspace: the path itself for
 * folders, otherwise its parent. Undefined inside the workspace and for harmless devices.
 */
export function outsideDirectory(workspace: string, path: string, isDirectory: boolean): string | undefined {
  if (isHarmlessDevice(path) || isInside(workspace, path)) return undefined;
  return isDirectory ? path : dirname(path);
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

/** Whether an operand names a folder by its spelling: a trailing `/`, `.`, `..`, `~`. */
export function spelledAsDirectory(value: string): boolean {
  const base = value.split("/").at(-1) ?? "";
  return value === "~" || value.endsWith("/") || base === "." || base === ".." || base === "";
}
