// Runs git against one shadow repository with everything that could make the user's setup change
// its behaviour switched off: no system or global config, no hooks, no attributes or excludes from
// the user's home, no inherited GIT_* variables, fixed line-ending and quoting settings.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { devNull } from "node:os";
import { GitCommandError, GitNotFoundError } from "./errors.js";

/** The identity written into the shadow repository (it never commits, but some commands want one). */
const IDENTITY = { name: "Lathe Snapshots", email: "snapshots@lathe.invalid" };

/** Options of one git invocation. */
export interface GitRunOptions {
  /** Bytes written to git's stdin (then closed). */
  input?: string | Buffer;
  /** Exit codes that are not failures (default: only 0). */
  okCodes?: readonly number[];
}

/** What one git invocation produced. */
export interface GitResult {
  stdout: Buffer;
  exitCode: number;
}

/** Where the shadow repository lives and which directory it snapshots. */
export interface GitTarget {
  /** The git executable. */
  gitPath: string;
  /** The shadow repository (`--git-dir`). */
  gitDir: string;
  /** The workspace (`--work-tree`). */
  workTree: string;
}

/**
 * Runs `git` for `target` with `args` and the isolation options; resolves with stdout as bytes.
 * `excludesFile` is the workspace's own `.git/info/exclude` (or none), passed as `core.excludesFile`
 * so the user's global ignore file is never read in its place.
 */
export function runGit(target: GitTarget, args: readonly string[], options: GitRunOptions = {}, excludesFile?: string): Promise<GitResult> {
  const fullArgs = [
    ...isolationConfig(excludesFile),
    "--literal-pathspecs",
    `--git-dir=${target.gitDir}`,
    `--work-tree=${target.workTree}`,
    ...args,
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(target.gitPath, fullArgs, {
      cwd: target.workTree,
      env: isolatedEnv(target.gitDir),
      stdio: ["pipe", "pipe", "pipe"],
      windowsHide: true,
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
    child.on("error", (error: NodeJS.ErrnoException) => {
      // spawn says ENOENT for a missing working directory too: that is not a missing git.
      if (!existsSync(target.workTree)) reject(new GitCommandError(args, null, `the workspace ${target.workTree} does not exist`));
      else reject(error.code === "ENOENT" || error.code === "EACCES" ? new GitNotFoundError(target.gitPath, { cause: error }) : error);
    });
    child.on("close", (code) => {
      const exitCode = code ?? -1;
      if (code !== null && (code === 0 || options.okCodes?.includes(code))) {
        resolve({ stdout: Buffer.concat(out), exitCode });
      } else {
        reject(new GitCommandError(args, code, Buffer.concat(err).toString("utf8").trim()));
      }
    });
    // git may exit before reading all its input (it failed); the close handler reports that.
    child.stdin.on("error", () => {});
    child.stdin.end(options.input ?? "");
  });
}

/** `-c` options given to every command: they outrank any config file git could still find. */
function isolationConfig(excludesFile: string | undefined): string[] {
  const settings: Record<string, string> = {
    "core.autocrlf": "false",
    "core.safecrlf": "false",
    "core.quotepath": "false",
    "core.fsmonitor": "false",
    "core.splitIndex": "false",
    "core.sparseCheckout": "false",
    "core.hooksPath": devNull,
    "core.attributesFile": devNull,
    "core.excludesFile": excludesFile ?? devNull,
    "gc.auto": "0",
    "maintenance.auto": "false",
    "commit.gpgSign": "false",
    "safe.directory": "*",
    "user.name": IDENTITY.name,
    "user.email": IDENTITY.email,
  };
  return Object.entries(settings).flatMap(([key, value]) => ["-c", `${key}=${value}`]);
}

/** The process environment without GIT_* variables (a hook's GIT_DIR or GIT_INDEX_FILE would redirect us), and with no home config. */
function isolatedEnv(home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !key.toUpperCase().startsWith("GIT_")) env[key] = value;
  }
  return {
    ...env,
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: devNull,
    HOME: home,
    XDG_CONFIG_HOME: home,
    GIT_TERMINAL_PROMPT: "0",
    GIT_AUTHOR_NAME: IDENTITY.name,
    GIT_AUTHOR_EMAIL: IDENTITY.email,
    GIT_COMMITTER_NAME: IDENTITY.name,
    GIT_COMMITTER_EMAIL: IDENTITY.email,
    LC_ALL: "C",
  };
}
