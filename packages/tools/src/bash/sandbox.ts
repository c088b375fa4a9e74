import { spawnSync } from "node:child_process";
import { SandboxUnavailableError } from "../errors.js";
import { findOnPath } from "../find-executable.js";
import { hostSocketMasks } from "./host-sockets.js";

/**
 * Runs commands under bubblewrap (Linux): the workspace writable, the rest of the file system
 * read-only, every capability dropped (also when the host runs as root), its own user namespace
 * where the kernel allows it (and no further one inside), its own process and IPC namespaces, a
 * private `/tmp` and `/run`, no host unix socket outside the workspace, no network unless `network`
 * is true (and `webfetch` is allowed), and ended with the process that started it. The path rules
 * are enforced in it: what `read` denies is hidden and what `edit` denies is read-only (see
 * `enforcementMounts`), so a command the analyser misjudged still cannot reach them.
 */
export interface BwrapSandbox {
  type: "bwrap";
  /**
   * Allow network access. Default false. The `webfetch` rules have the last word: unless they allow
   * `webfetch` outright, there is no network either. With the network, the host's abstract unix
   * sockets (those without a file) are reachable too: they belong to the network namespace.
   */
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

// The strongest isolation this bubblewrap and kernel accept, best first: an own user namespace in
// which no further one can be made (so nothing inside can gain capabilities to remount), the same
// on a bubblewrap without --disable-userns, and, where user namespaces are off (only root can run
// bubblewrap then), the host's user namespace with every capability dropped all the same.
const ISOLATION_LEVELS: readonly (readonly string[])[] = [
  ["--unshare-user", "--disable-userns", "--cap-drop", "ALL"],
  ["--unshare-user", "--cap-drop", "ALL"],
  ["--cap-drop", "ALL"],
];

const isolation = new Map<string, readonly string[]>();

/**
 * Checks once that bubblewrap can run here (Linux, binary found, a sandbox it can set up) and
 * returns its path; throws {@link SandboxUnavailableError} otherwise. Remembers the strongest
 * isolation that works (see {@link bwrapIsolation}).
 */
export function probeBwrap(sandbox: BwrapSandbox): string {
  if (process.platform !== "linux") throw new SandboxUnavailableError("bwrap", `bubblewrap runs on Linux only (this is ${process.platform})`);
  const binary = sandbox.path ?? findOnPath("bwrap");
  if (!binary) throw new SandboxUnavailableError("bwrap", "the bwrap binary was not found on PATH (install bubblewrap)");
  if (isolation.has(binary)) return binary;
  let failure = "";
  for (const level of ISOLATION_LEVELS) {
    const probe = spawnSync(binary, ["--ro-bind", "/", "/", ...level, "--unshare-pid", "--die-with-parent", "true"], { encoding: "utf8", timeout: 10_000 });
    if (probe.error) throw new SandboxUnavailableError("bwrap", probe.error.message);
    if (probe.status === 0) {
      isolation.set(binary, level);
      return binary;
    }
    failure ||= probe.stderr.trim() || `bwrap exited with ${probe.status}`;
  }
  throw new SandboxUnavailableError("bwrap", failure);
}

/** The isolation flags {@link probeBwrap} found for `binary` (probing now if it has not). */
export function bwrapIsolation(binary: string): readonly string[] {
  if (!isolation.has(binary)) probeBwrap({ type: "bwrap", path: binary });
  return isolation.get(binary)!;
}

/** What the rules add to the sandbox: mounts enforcing path rules, and whether the network is on. */
export interface SandboxRules {
  /** Mounts from `enforcementMounts` (masked and read-only paths). */
  mounts?: readonly string[];
  /** The network the rules allow: off when `webfetch` is not allowed outright. Default: as `sandbox.network`. */
  network?: boolean;
}

/** The bubblewrap command line that runs `shell -c command` in `workdir` with `workspace` writable. */
export function bwrapCommand(binary: string, sandbox: BwrapSandbox, shell: string, command: string, workspace: string, workdir: string, rules: SandboxRules = {}): SandboxedCommand {
  const network = sandbox.network === true && rules.network !== false;
  const args = [
    "--ro-bind", "/", "/",
    "--dev", "/dev",
    "--proc", "/proc",
    // Private, empty: the host's temporary files and runtime sockets (/run, and /var/run with it) stay out.
    "--tmpfs", "/tmp",
    "--tmpfs", "/run",
    // Every other host unix socket with a file, outside the workspace, is covered by an empty file.
    ...hostSocketMasks(workspace, ["/tmp", "/run"]).flatMap((socket) => ["--ro-bind", "/dev/null", socket]),
    // After the tmpfs mounts, so that a workspace under /tmp or /run is mounted on top of them.
    "--bind", workspace, workspace,
    // After the workspace: what `edit` denies read-only, what `read` denies hidden.
    ...(rules.mounts ?? []),
    ...bwrapIsolation(binary),
    "--unshare-pid",
    "--unshare-ipc",
    "--die-with-parent",
    ...(network ? [] : ["--unshare-net"]),
    "--chdir", workdir,
    "--", shell, "-c", command,
  ];
  return { file: binary, args, sandbox: "bwrap" };
}

/**
 * True when bubblewrap failed to set up because a host socket it was to cover vanished after the
 * scan (the command did not run, so running it again with a fresh scan is safe).
 */
export function socketVanished(command: SandboxedCommand, result: { exit: number | null; output: string } | undefined): boolean {
  if (command.sandbox !== "bwrap" || result?.exit !== 1) return false;
  const failed = /^bwrap: Can't (?:create file at|find source path|mount) (\S+?):/m.exec(result.output)?.[1];
  if (!failed) return false;
  return command.args.some((arg, i) => arg === failed && command.args[i - 1] === "/dev/null" && command.args[i - 2] === "--ro-bind");
}
