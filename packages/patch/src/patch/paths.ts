// Paths in a patch are relative to the target root and must stay inside it. The engine refuses
// anything else before touching a file; the caller's permission checks come on top of this.
import { posix } from "node:path";
import { PatchPathError } from "../errors.js";

/** The normalised relative form of a patch path; throws {@link PatchPathError} if it leaves the root. */
export function safeRelativePath(path: string): string {
  if (path.includes("\0")) throw new PatchPathError(path, "it contains a NUL character");
  // Backslashes count as separators for this check, so `..\\x` cannot slip through on any platform.
  const slashed = path.replace(/\\/g, "/");
  if (slashed.startsWith("/") || /^[A-Za-z]:/.test(slashed) || slashed.startsWith("~")) {
    throw new PatchPathError(path, "it is absolute");
  }
  const normalized = posix.normalize(slashed);
  if (normalized === ".." || normalized.startsWith("../")) throw new PatchPathError(path, "it leaves the workspace root");
  const clean = normalized.replace(/\/+$/, "");
  if (clean === "" || clean === ".") throw new PatchPathError(path, "it names the workspace root itself");
  return clean;
}

/** The parent directories of a relative path, outermost first (`a/b/c` → `a`, `a/b`). */
export function parentDirectories(path: string): string[] {
  const parts = path.split("/");
  const dirs: string[] = [];
  for (let i = 1; i < parts.length; i++) dirs.push(parts.slice(0, i).join("/"));
  return dirs;
}
