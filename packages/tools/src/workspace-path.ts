import { rm } from "node:fs/promises";
import { homedir, tmpdir } from "node:os";
import path from "node:path";
import { InvalidPathError } from "./errors.js";
import { realpathLoose, SymlinkLoopError } from "./path-resolution.js";
import type { ToolContext } from "./tool.js";

export { realpathLoose } from "./path-resolution.js";

/** The longest path, in bytes, the file system can open (Linux's `PATH_MAX`, less the final NUL). */
export const MAX_PATH_BYTES = 4095;

/** A tool's path argument resolved against the workspace. */
export interface ResolvedPath {
  /** Absolute path, symlinks resolved as far as the path exists. This is what the tool touches. */
  absolute: string;
  /** The path relative to the workspace, `/`-separated; what permission patterns are made of. */
  relative: string;
  /** True when the path lies outside the workspace (and outside the session's data directory). */
  external: boolean;
}

/** Options of {@link resolveToolPath}. */
export interface ResolvePathOptions {
  /** The path names a directory: the `external_directory` ask covers the directory itself, not its parent. */
  directory?: boolean;
}

/**
 * The directory where tools keep this session's files (full text of truncated outputs):
 * `ctx.dataDir`, else `<os.tmpdir()>/lathe/<sessionID>`.
 */
export function sessionDataDir(ctx: Pick<ToolContext, "dataDir" | "sessionID">): string {
  return ctx.dataDir ?? path.join(tmpdir(), "lathe", ctx.sessionID.replace(/[^\w.-]/g, "_"));
}

/**
 * Removes the session's data directory (kept full outputs). For the host when it removes a session;
 * a no-op when there is none.
 */
export async function removeSessionData(ctx: Pick<ToolContext, "dataDir" | "sessionID">): Promise<void> {
  await rm(sessionDataDir(ctx), { recursive: true, force: true });
}

/**
 * Checks a path argument: a non-empty string without NUL bytes that is valid Unicode (a lone
 * surrogate, which is what invalid UTF-8 becomes on the way in, would name a different file once
 * encoded). Throws {@link InvalidPathError}; a long argument is quoted only in part.
 */
export function assertPathArgument(input: unknown): asserts input is string {
  if (typeof input !== "string") throw new InvalidPathError(String(input), "a path must be a string");
  if (!input.trim()) throw new InvalidPathError(input, "the path is empty");
  if (input.includes("\0")) throw new InvalidPathError(shortened(input), "the path contains a NUL byte");
  if (LONE_SURROGATE.test(input)) throw new InvalidPathError(shortened(input), "the path is not valid Unicode (invalid UTF-8)");
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function shortened(input: string): string {
  return input.length > 200 ? `${input.slice(0, 200)}… (${input.length} characters)` : input;
}

/**
 * Resolves a tool's path argument against `ctx.cwd`, following symlinks as far as the path exists,
 * and asks `external_directory` (pattern `<dir>/*`) when the real path lies outside the workspace, so a
 * symlink inside the workspace that leads out is caught. Paths inside the session's data directory
 * need no ask. A leading `~/` means the home directory.
 */
export async function resolveToolPath(
  ctx: ToolContext,
  input: string,
  options: ResolvePathOptions = {},
): Promise<ResolvedPath> {
  assertPathArgument(input);
  const expanded = input === "~" || input.startsWith("~/") ? path.join(homedir(), input.slice(1)) : input;
  // Joined, not resolved: `..` is applied by realpathLoose after the symlinks before it, as the kernel does.
  const joined = path.isAbsolute(expanded) ? expanded : `${ctx.cwd}${path.sep}${expanded}`;
  const absolute = await realpathLoose(joined).catch((error: unknown) => {
    if (error instanceof SymlinkLoopError) throw new InvalidPathError(shortened(input), "its symbolic links form a loop");
    throw error;
  });
  // Such a path cannot be opened anyway; refusing it here keeps a huge argument cheap.
  if (Buffer.byteLength(absolute) > MAX_PATH_BYTES) throw new InvalidPathError(shortened(input), `it is longer than ${MAX_PATH_BYTES} bytes`);
  const root = await realpathLoose(path.resolve(ctx.cwd));
  const relative = toPosix(path.relative(root, absolute)) || ".";
  const external = !isInside(root, absolute) && !isInside(await realpathLoose(sessionDataDir(ctx)), absolute);
  if (external) {
    const dir = options.directory ? absolute : path.dirname(absolute);
    const pattern = toPosix(path.join(dir, "*"));
    await ctx.ask({
      permission: "external_directory",
      patterns: [pattern],
      always: [pattern],
      metadata: { filepath: absolute, parentDir: dir },
    });
  }
  return { absolute, relative, external };
}

/** True when `child` is `parent` or lies below it. Both absolute. */
export function isInside(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

/** A path with `/` separators, the form permission patterns use on every platform. */
export function toPosix(p: string): string {
  return p.split(path.sep).join("/");
}

/** The path a permission ask names: workspace-relative inside the workspace, absolute outside. */
export function permissionPath(resolved: ResolvedPath): string {
  return resolved.external ? toPosix(resolved.absolute) : resolved.relative;
}
