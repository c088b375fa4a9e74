import { spawnSync } from "node:child_process";
import { SandboxUnavailableError } from "../errors.js";
import { findOnPath } from "../find-executable.js";

/**
 * Runs commands under bubblewrap (Linux): the workspace writable, the rest of the file system
 * read-only, a private `/tmp`, its own process namespace, and no network unless `network` is true.
 */
export interface BwrapSandbox {
  type: "bwrap";
  /** Allow network access. Default false. */
  network?: boolean;
  /** The bubblewrap binary. Default: `bwrap` on `PATH`. */
  path?: string;
  /**
   * Opt-in: when bubblewrap cannot run here, run commands without a sandbox (the result's metadata
   * says `sandbox: "none"`) instead of failing with {@link SandboxUnavailableError}.
   */
  allowUnsandboxed?: boolean;
}

/** The sandbox the bash tool runs commands in. */
export type BashSandbox = BwrapSandbox;

/** How to start a command: the program and its arguments. */
export interface SandboxedCommand {
  file: string;
  args: string[];
  /** `bwrap` when sandboxed, `none` otherwise. */
  sandbox: "bwrap" | "none";
}

/**
 * Checks once that bubblewrap can run here (Linux, binary found, user namespaces allowed) and
 * returns its path; throws {@link SandboxUnavailableError} otherwise.
 */
export function probeBwrap(sandbox: BwrapSandbox): string {
  if (process.platform !== "linux") throw new SandboxUnavailableError("bwrap", `bubblewrap runs on Linux only (this is ${process.platform})`);
  const binary = sandbox.path ?? findOnPath("bwrap");
  if (!binary) throw new SandboxUnavailableError("bwrap", "the bwrap binary was not found on PATH (install bubblewrap)");
  const probe = spawnSync(binary, ["--ro-bind", "/", "/", "--unshare-pid", "--die-with-parent", "true"], { encoding: "utf8", timeout: 10_000 });
  if (probe.error) throw new SandboxUnavailableError("bwrap", probe.error.message);
  if (probe.status !== 0) throw new SandboxUnavailableError("bwrap", probe.stderr.trim() || `bwrap exited with ${probe.status}`);
  return binary;
}

/** The bubblewrap command line that runs `shell -c command` in `workdir` with `workspace` writable. */
export function bwrapCommand(binary: string, sandbox: BwrapSandbox, shell: string, command: string, workspace: string, workdir: string): SandboxedCommand {
  const args = [
    "--ro-bind", "/", "/",
    "--dev", "/dev",
    "--proc", "/proc",
    "--tmpfs", "/tmp",
    // After the tmpfs, so that a workspace under /tmp is mounted on top of it.
    "--bind", workspace, workspace,
    "--unshare-pid",
    "--die-with-parent",
    ...(sandbox.network ? [] : ["--unshare-net"]),
    "--chdir", workdir,
    "--", shell, "-c", command,
  ];
  return { file: binary, args, sandbox: "bwrap" };
}
