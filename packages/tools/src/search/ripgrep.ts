import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { findOnPath, isExecutable } from "../find-executable.js";

/**
 * Where to find ripgrep: a path to the binary, `false` to never use it (always the pure-Node search),
 * or `undefined` to look for `rg` on `PATH`, then in the `@vscode/ripgrep` npm package if installed.
 */
export type RipgrepOption = string | false | undefined;

/** The ripgrep binary to use, or `undefined` when there is none (the pure-Node search is used). */
export function locateRipgrep(option: RipgrepOption): string | undefined {
  if (option === false) return undefined;
  if (typeof option === "string") return isExecutable(option) ? option : undefined;
  const onPath = findOnPath(process.platform === "win32" ? "rg.exe" : "rg");
  if (onPath) return onPath;
  try {
    const { rgPath } = createRequire(import.meta.url)("@vscode/ripgrep") as { rgPath?: string };
    if (rgPath && isExecutable(rgPath)) return rgPath;
  } catch {
    // not installed
  }
  return undefined;
}

/** The flags that make ripgrep walk a tree the way {@link walkFiles} does. */
export const RIPGREP_WALK_FLAGS = ["--hidden", "--no-require-git", "--no-ignore-global", "--no-ignore-exclude", "--no-messages", "--color=never"];

/** Thrown when ripgrep exits with an error and nothing to show (e.g. an invalid regex). */
export class RipgrepError extends Error {
  override readonly name = "RipgrepError";
  constructor(
    readonly exitCode: number | null,
    readonly stderr: string,
  ) {
    super(`ripgrep failed (exit ${exitCode}): ${stderr.trim()}`);
  }
}

/**
 * Runs ripgrep in `cwd` and hands each line of its output to `onLine` as it comes. Exit 1 (nothing
 * found) is not an error; exit 2 with output is a partial result (an unreadable file), without output
 * a {@link RipgrepError}.
 */
export function runRipgrep(
  rg: string,
  args: string[],
  cwd: string,
  onLine: (line: string) => void,
  signal?: AbortSignal,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(rg, args, { cwd, stdio: ["ignore", "pipe", "pipe"], signal });
    let pending = "";
    let stderr = "";
    let sawOutput = false;
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      sawOutput = true;
      pending += chunk;
      let start = 0;
      for (let nl = pending.indexOf("\n"); nl !== -1; nl = pending.indexOf("\n", start)) {
        onLine(pending.slice(start, nl));
        start = nl + 1;
      }
      pending = pending.slice(start);
    });
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => {
      if (stderr.length < 10_000) stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => {
      if (pending) onLine(pending);
      if (code === 0 || code === 1 || (code === 2 && sawOutput)) resolve();
      else reject(new RipgrepError(code, stderr));
    });
  });
}
