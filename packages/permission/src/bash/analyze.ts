import { homedir } from "node:os";
import { resolve } from "node:path";
import { AnalysisBudget } from "./clock.js";
import { bashParser } from "./parser.js";
import { outsideDirectory } from "./paths.js";
import { Walker } from "./walker.js";

/** A file or folder a command touches, as an absolute lexical path (symlinks not resolved). */
export interface PathUse {
  /** Absolute path, `~` expanded, relative to the working directory the command has there. */
  path: string;
  /** The operand names a folder (`cd`, `mkdir`, `git -C`): `external_directory` asks for it, not its parent. */
  directory: boolean;
  /** The command writes it: a redirection target (`>`, `>>`, `&>`, `>|`) or a `tee` operand. */
  write: boolean;
  /**
   * The path as the kernel walks it, when it holds `..` (`/ws/link/../x`): after a symlink, `..`
   * leaves the link's target, so a resolver that reads the links (the `bash` tool's) resolves this
   * form, component by component, rather than the lexical `path`.
   */
  spelled?: string;
}

/** What a bash command does, for permission purposes; see {@link analyzeCommand}. */
export interface CommandAnalysis {
  /**
   * One pattern per simple command it runs, in order, in canonical form: its words after quote
   * removal and escape handling, joined by single spaces, the executable without its folder
   * (`/bin/rm  'x'` → `rm x`). A command run by a wrapper that only changes how it runs (`nice`,
   * `timeout`, `env`, `busybox`…) is listed as itself; one run by `sudo`, `su`, `ssh`… as well as the
   * wrapper. A command that is only a redirection (`> f`) is listed as written.
   */
  patterns: string[];
  /**
   * Per pattern (same order), its other spellings: as written, with the executable's folder, with
   * global options set aside (`git -C x push` → `git push`), inside its wrappers. Deny and ask rules
   * are checked against these as well; allow rules only against the pattern.
   */
  variants: string[][];
  /** `always` suggestions: each analysable simple command's prefix by the arity table + ` *`. */
  always: string[];
  /** The files and folders that file commands, redirections and folder options reach. */
  paths: PathUse[];
  /** Folders outside the workspace that `paths` reach (lexically; `bashAsks` recomputes from `paths`). */
  externalDirectories: string[];
  /** The workspace root the paths are judged against. */
  workspace: string;
  /** Some part could not be analysed safely: ask for the whole command whatever allow rules say. */
  opaque: boolean;
}

/** Options of {@link analyzeCommand}. */
export interface AnalyzeCommandOptions {
  /** The directory the command runs in (absolute). */
  cwd: string;
  /** The home directory for `~` and `$HOME`. Default: `os.homedir()`. */
  home?: string;
  /** The workspace root paths are checked against. Default: `cwd`. */
  workspace?: string;
}

/**
 * Commands longer than this (in characters) are not parsed: they are asked as a whole, opaque. No
 * agent writes a longer command that should run unasked (a file's content belongs in `write`, not in
 * a heredoc), and parsing and walking 100 KB of shell can take longer than the analysis may, on any
 * machine: a bound on the input keeps every decision within the time budget.
 */
export const MAX_ANALYZED_LENGTH = 16 * 1024;

/**
 * Time allowed for parsing and walking one command, in ms: this much wall time, then this much more
 * CPU time (see `AnalysisBudget`; at most about twice this in CPU time). A command that takes longer
 * is asked as a whole, opaque, with nothing of what was found by then (a partial answer could miss
 * what the rest runs).
 */
export const ANALYSIS_TIME_BUDGET_MS = 30;

/**
 * Analyses a bash command into the simple commands it runs, failing closed: a parser of the subset
 * of bash modelled exactly (simple commands of literal or plainly quoted words, pipelines, lists,
 * subshells and groups, plain redirections, process substitutions, heredocs with literal bodies)
 * reads it first, and anything outside that subset is `opaque`. What it accepts is handed to
 * tree-sitter-bash in a canonical spelling and walked: wrappers (`sudo`, `env`, `timeout`, `flock`,
 * `su -c`…), literal `sh -c '…'` strings and heredocs fed to a shell, builtins that evaluate text
 * and options whose value is a program (both opaque) come from tables. Each command is given in
 * canonical form with its other spellings (see {@link CommandAnalysis}); quoted text is data.
 * `cd`, `pushd` and `env -C` are followed to resolve relative paths. What opaque commands run is
 * still extracted where possible, so deny rules can catch it; an analysis over its CPU budget is
 * opaque with only the whole command. Never throws for a string command: a failure is opaque.
 */
export async function analyzeCommand(command: string, options: AnalyzeCommandOptions): Promise<CommandAnalysis> {
  if (typeof command !== "string") throw new TypeError("analyzeCommand: command must be a string");
  if (typeof options?.cwd !== "string" || options.cwd === "") throw new TypeError("analyzeCommand: options.cwd is required");
  const cwd = resolve(options.cwd);
  const workspace = resolve(options.workspace ?? cwd);
  const home = options.home ?? homedir();
  const whole = command.trim();
  let walker: Walker | undefined;
  if (command.length <= MAX_ANALYZED_LENGTH) {
    try {
      const parser = await bashParser();
      walker = new Walker(parser, home, new AnalysisBudget(ANALYSIS_TIME_BUDGET_MS));
      walker.source(command, new Set([cwd]), 0);
      // Out of time: what was found so far is not the answer (never a partial one).
      if (walker.outOfTime) walker = undefined;
    } catch {
      walker = undefined; // the parser failed to load or gave up: ask for the whole command
    }
  }
  if (!walker) {
    return { patterns: whole ? [whole] : [], variants: whole ? [[]] : [], always: [], paths: [], externalDirectories: [], workspace, opaque: whole !== "" };
  }
  // A NUL byte cannot reach bash (a C string ends there): what would run is not what was parsed.
  if (command.includes("\0")) walker.opaque = true;
  if (walker.opaque && walker.commands.size === 0 && whole !== "") walker.add(whole, []);
  const paths = walker.paths();
  const external = new Set<string>();
  for (const use of paths) {
    const outside = outsideDirectory(workspace, use.path, use.directory);
    if (outside) external.add(outside);
  }
  return {
    patterns: [...walker.commands.keys()],
    variants: [...walker.commands.values()].map((set) => [...set]),
    // An opaque command is asked as a whole: no prefix to approve for later.
    always: walker.opaque ? [] : [...new Set(walker.alwaysSlots.filter((a) => a !== undefined))],
    paths,
    externalDirectories: [...external],
    workspace,
    opaque: walker.opaque,
  };
}
