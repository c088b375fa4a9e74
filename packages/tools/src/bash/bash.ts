import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { stat } from "node:fs/promises";
import path from "node:path";
import { analyzeCommand, bashAsks } from "@lathe/permission";
import { z } from "zod";
import { childEnvironment, type CREDENTIAL_ENV_NAMES } from "../env-policy.js";
import { FileNotFoundError, InvalidPathError, ToolInputError } from "../errors.js";
import { defineTool, type Tool, type ToolContext } from "../tool.js";
import { DEFAULT_TRUNCATION, type TruncationLimits } from "../truncate.js";
import { realpathLoose, resolveToolPath } from "../workspace-path.js";
import description from "./bash.txt?raw";
import { OutputSpool } from "./output-spool.js";
import { killGroup } from "./process-group.js";
import { guardOrphans } from "./orphan-guard.js";
import { enforcementMounts } from "./path-enforcement.js";
import { bwrapCommand, probeBwrap, socketVanished, type BashSandbox, type SandboxedCommand } from "./sandbox.js";

/** Options of the `bash` tool. */
export interface BashToolOptions {
  /** The shell. Default `/bin/bash`, else `/bin/sh`. */
  shell?: string;
  /** Timeout when the call gives none, in ms. Default 120,000 (2 minutes). */
  defaultTimeoutMs?: number;
  /** Longest timeout a call may ask for, in ms. Default 600,000 (10 minutes). */
  maxTimeoutMs?: number;
  /** Time between SIGTERM and SIGKILL when a command is stopped, in ms. Default 3,000. */
  killGraceMs?: number;
  /** Output limits (default 2,000 lines / 50 KB; the end of the output is kept). */
  truncation?: Partial<TruncationLimits>;
  /** Run commands in a sandbox; see {@link BashSandbox}. Default: no sandbox. */
  sandbox?: BashSandbox;
  /**
   * Extra environment variables for every command, on top of the host's environment without
   * credentials (not added when the context's `shellEnv` gives the environment exactly).
   */
  env?: Record<string, string>;
  /** More variable names (wildcards, case-insensitive) kept from commands, beside {@link CREDENTIAL_ENV_NAMES}. */
  withholdEnv?: string[];
}

const BashParameters = z.object({
  command: z.string().describe("The command to run"),
  timeout: z.number().positive().optional().describe("Timeout in milliseconds (default 120000, max 600000)"),
  workdir: z.string().optional().describe("The folder to run the command in (default: the working directory)"),
  description: z.string().optional().describe("What the command does, in 5-10 words"),
});

/** Metadata of a `bash` result (also sent as live progress while it runs, with the output so far). */
export interface BashMetadata extends Record<string, unknown> {
  /** Exit code; null when the command was killed by a signal. */
  exit: number | null;
  /** The same as `exit`, under the name some hosts expect. */
  exitCode: number | null;
  /** The signal that ended the command, if one did. */
  signal: string | null;
  timedOut: boolean;
  aborted: boolean;
  /** The end of the output (at most 30,000 characters), for UIs. */
  output: string;
  truncated: boolean;
  /** Where the full output was kept, when truncated. */
  outputPath?: string;
  description?: string;
  /** The sandbox the command ran in. */
  sandbox: "bwrap" | "none";
}

/** Creates the `bash` tool. */
export function createBashTool(options: BashToolOptions = {}): Tool<typeof BashParameters, BashMetadata> {
  const shell = options.shell ?? (existsSync("/bin/bash") ? "/bin/bash" : "/bin/sh");
  const defaultTimeout = options.defaultTimeoutMs ?? 120_000;
  const maxTimeout = options.maxTimeoutMs ?? 600_000;
  const limits = { ...DEFAULT_TRUNCATION, ...options.truncation };
  let bwrap: string | undefined | Error;
  // Probed on first use, once per tool instance: an unusable sandbox is an error unless opted out.
  const sandboxBinary = (): string | undefined => {
    if (!options.sandbox) return undefined;
    if (bwrap === undefined) {
      try {
        bwrap = probeBwrap(options.sandbox);
      } catch (error) {
        bwrap = error as Error;
      }
    }
    if (!(bwrap instanceof Error)) return bwrap;
    if (options.sandbox.allowUnsandboxed) return undefined;
    throw bwrap;
  };

  return defineTool({
    name: "bash",
    boundsOutput: true,
    description,
    parameters: BashParameters,
    async execute(args, ctx) {
      if (!args.command.trim()) throw new ToolInputError("bash", "The command is empty.");
      const workspace = await realpathLoose(path.resolve(ctx.cwd));
      const workdir = await resolveToolPath(ctx, args.workdir ?? ".", { directory: true });
      const info = await stat(workdir.absolute).catch(() => undefined);
      if (!info) throw new FileNotFoundError(workdir.absolute);
      if (!info.isDirectory()) throw new InvalidPathError(args.workdir ?? ".", "workdir is not a folder");

      await askForCommand(ctx, args.command, args.description, workdir.absolute, workspace);

      const binary = sandboxBinary();
      const build = (): SandboxedCommand =>
        binary
          ? bwrapCommand(binary, options.sandbox!, shell, args.command, workspace, workdir.absolute, {
              mounts: enforcementMounts(ctx, workspace),
              network: ctx.check ? ctx.check({ permission: "webfetch", patterns: ["*"] }) === "allow" : true,
            })
          : { file: shell, args: ["-c", args.command], sandbox: "none" };
      const timeout = Math.min(args.timeout ?? defaultTimeout, maxTimeout);
      const opts = { timeout, graceMs: options.killGraceMs ?? 3000, limits, env: commandEnvironment(ctx, options), description: args.description };
      let command = build();
      let result = await run(ctx, command, workdir.absolute, opts);
      // A host socket that vanished between the scan and bubblewrap's start fails the set-up before
      // the command runs; it runs again with a fresh scan.
      for (let retry = 0; retry < 2 && socketVanished(command, result.metadata); retry++) {
        command = build();
        result = await run(ctx, command, workdir.absolute, opts);
      }
      return result;
    },
  });
}

/**
 * Asks what the command needs: its commands, the folders outside the workspace it reaches and the
 * files it writes, judged where the paths really lead (symlinks resolved), so `cat link-out` where
 * the link leads outside asks `external_directory` and `> link/x` into a linked `secrets/` asks
 * `edit secrets/x`.
 */
async function askForCommand(ctx: ToolContext, command: string, description: string | undefined, cwd: string, workspace: string) {
  const analysis = await analyzeCommand(command, { cwd, workspace });
  // A path that cannot be resolved (a symlink loop, too long) is judged as written.
  // Resolved as the kernel walks them: a `..` after a symlink leaves the link's target.
  const paths = await Promise.all(analysis.paths.map(async (use) => ({ ...use, path: await realpathLoose(use.spelled ?? use.path).catch(() => use.path) })));
  for (const spec of bashAsks({ ...analysis, paths })) {
    await ctx.ask({ ...spec, metadata: { command, description } });
  }
}

/** One policy for every command: the host's `shellEnv` exactly, else its environment without credentials — either without the variables that make the shell run unseen code. */
function commandEnvironment(ctx: ToolContext, options: BashToolOptions): Record<string, string> {
  if (ctx.shellEnv) return withoutShellCode(childEnvironment({ exact: ctx.shellEnv }));
  return withoutShellCode({ ...childEnvironment({ withhold: options.withholdEnv ?? [] }), PAGER: "cat", GIT_PAGER: "cat", ...options.env });
}

/**
 * Variables that would make the shell run code or read words the command text does not show: a
 * startup file (`BASH_ENV`, `ENV`), exported functions (`BASH_FUNC_name%%`, which can take the name
 * of any command), shell options (`SHELLOPTS`, `BASHOPTS`: `expand_aliases`, `xtrace`…), `PS4`
 * (expanded for `set -x`), `CDPATH` (where `cd dir` lands) and `GLOBIGNORE`. The analysis the rules
 * see assumes none of them, so commands run without them.
 */
const SHELL_CODE_VARIABLES = new Set(["BASH_ENV", "ENV", "SHELLOPTS", "BASHOPTS", "PS4", "CDPATH", "GLOBIGNORE", "PROMPT_COMMAND"]);

function withoutShellCode(env: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !SHELL_CODE_VARIABLES.has(name) && !name.startsWith("BASH_FUNC_")));
}

async function run(
  ctx: ToolContext,
  command: SandboxedCommand,
  cwd: string,
  opts: { timeout: number; graceMs: number; limits: TruncationLimits; env: Record<string, string>; description?: string },
) {
  const spool = new OutputSpool(ctx, opts.limits);
  const child = spawn(command.file, command.args, {
    cwd,
    // Its own process group, so that stopping it reaches every process it started.
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: opts.env,
  });
  const pgid = child.pid;
  // If this process is killed mid-command, the command's group dies with it: no orphaned tool processes.
  const unguard = pgid ? guardOrphans(pgid) : () => {};
  let timedOut = false;
  let aborted = false;
  let lastProgress = 0;
  const progress = (force = false) => {
    const now = Date.now();
    if (!force && now - lastProgress < 100) return;
    lastProgress = now;
    ctx.metadata({ metadata: { output: spool.preview(), description: opts.description, pid: pgid } });
  };
  const onData = (chunk: Buffer | string) => {
    spool.append(chunk.toString());
    progress();
  };
  child.stdout.setEncoding("utf8").on("data", onData);
  child.stderr.setEncoding("utf8").on("data", onData);

  let stopping: Promise<void> | undefined;
  const stop = () => (stopping ??= pgid ? killGroup(pgid, opts.graceMs) : Promise.resolve());
  const timer = setTimeout(() => {
    timedOut = true;
    void stop();
  }, opts.timeout);
  const onAbort = () => {
    aborted = true;
    void stop();
  };
  if (ctx.abort.aborted) onAbort();
  else ctx.abort.addEventListener("abort", onAbort, { once: true });

  const [exit, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code, sig) => {
      // Output still in the pipes is read; a background process that keeps them open is not waited for.
      const settle = setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
        resolve([code, sig]);
      }, 200);
      child.once("close", () => {
        clearTimeout(settle);
        resolve([code, sig]);
      });
    });
  }).finally(() => {
    unguard();
    clearTimeout(timer);
    ctx.abort.removeEventListener("abort", onAbort);
  });
  // A stopped command's group is gone before the result is returned: no process outlives the call.
  if (stopping) await stopping;

  const out = await spool.finish();
  const notes: string[] = [];
  if (timedOut) notes.push(`The command timed out after ${opts.timeout} ms and was stopped.`);
  if (aborted) notes.push("The command was aborted and stopped.");
  if (!timedOut && !aborted) {
    if (signal) notes.push(`The command was killed by ${signal}.`);
    else if (exit !== 0) notes.push(`Exit code ${exit}.`);
  }
  const body = out.output || "(no output)";
  const metadata: BashMetadata = {
    exit,
    exitCode: exit,
    signal,
    timedOut,
    aborted,
    output: spool.preview(),
    truncated: out.truncated,
    description: opts.description,
    sandbox: command.sandbox,
  };
  if (out.outputPath) metadata.outputPath = out.outputPath;
  progress(true);
  return {
    title: opts.description ?? command.args.at(-1) ?? "",
    output: notes.length ? `${body}\n\n(${notes.join(" ")})` : body,
    metadata,
  };
}

/** The `bash` tool with default options (no sandbox). */
export const bashTool = createBashTool();
