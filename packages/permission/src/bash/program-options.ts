/**
 * Options whose value is a program the command runs (`rg --pre`, `tar --to-command`, `git
 * --upload-pack`, `rsync -e`, `sort --compress-program`, `split --filter`…), as a table. A command
 * using one runs something its command line does not name: the call is opaque.
 */

/** How one program's options are looked at. */
interface ProgramOptions {
  /** Long options whose value is a program (`--pre`, with `=value` or the next word). */
  long: readonly string[];
  /** Short options whose value is a program, also inside a cluster (`-e` in `rsync -avze ssh`). */
  short?: string;
  /** Long options taking a program only with a given value prefix (`--checkpoint-action=exec=`). */
  prefixed?: readonly string[];
  /** Words that run a program (or write files the command line does not name) anywhere among the arguments (`find -exec`, `find -delete`). */
  words?: readonly string[];
  /** Also opaque: an old-style first argument (`tar xIf prog …`) holding one of these letters. */
  oldStyle?: string;
}

/** Program name → options that run programs. A Map: no prototype keys. */
export const PROGRAM_OPTIONS: ReadonlyMap<string, ProgramOptions> = new Map<string, ProgramOptions>([
  ["tar", { long: ["--to-command", "--use-compress-program", "--info-script", "--new-volume-script", "--rsh-command", "--rmt-command", "--checkpoint-action"], short: "IF", oldStyle: "IF" }],
  ["rg", { long: ["--pre"] }],
  ["rsync", { long: ["--rsh", "--rsync-path"], short: "e" }],
  ["scp", { long: [], short: "SoF" }],
  ["sftp", { long: [], short: "SDoF" }],
  ["sort", { long: ["--compress-program"] }],
  ["split", { long: ["--filter"] }],
  ["find", { long: [], words: ["-exec", "-execdir", "-ok", "-okdir", "-fprint", "-fprint0", "-fprintf", "-fls", "-delete"] }],
  ["zip", { long: ["--unzip-command"], short: "T" }],
  ["man", { long: ["--pager", "--html"], short: "PH" }],
]);

/**
 * git: global `-c`/`--config-env`/`--exec-path` (config can name programs: core.sshCommand,
 * core.pager, core.fsmonitor, aliases), and per subcommand the options that name a program, the
 * subcommands that run one (`bisect run`, `submodule foreach`, `filter-branch`, `difftool`,
 * `mergetool`) and `git config` setting a value (a program for later commands).
 */
const GIT_SUBCOMMAND_PROGRAMS: ReadonlyMap<string, ProgramOptions> = new Map<string, ProgramOptions>([
  ["clone", { long: ["--upload-pack", "--template", "--config"], short: "uc" }],
  ["fetch", { long: ["--upload-pack"] }],
  ["pull", { long: ["--upload-pack"] }],
  ["ls-remote", { long: ["--upload-pack"] }],
  ["archive", { long: ["--exec", "--remote"] }],
  ["push", { long: ["--receive-pack", "--exec"] }],
  ["send-pack", { long: ["--receive-pack", "--exec"] }],
  ["rebase", { long: ["--exec"], short: "x" }],
  ["difftool", { long: ["--extcmd", "--tool"], short: "xt" }],
  ["mergetool", { long: ["--tool"], short: "t" }],
  ["bisect", { long: [], words: ["run"] }],
  ["submodule", { long: [], words: ["foreach"] }],
]);

function gitProgramOption(args: readonly string[]): string | undefined {
  let i = 0;
  for (; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "-c" || arg.startsWith("--config-env") || arg.startsWith("--exec-path=")) return arg;
    if (arg === "-C" || arg === "--git-dir" || arg === "--work-tree" || arg === "--namespace") i++;
    else if (!arg.startsWith("-")) break;
  }
  const sub = args[i];
  if (sub === undefined) return undefined;
  const rest = args.slice(i + 1);
  if (sub === "config") {
    // Reading (`--get`, `--list`, `-l`, one operand) is fine; setting a value is not.
    const operands = rest.filter((a) => !a.startsWith("-"));
    const reads = rest.some((a) => ["--get", "--get-all", "--get-regexp", "--list", "-l", "get", "list"].includes(a));
    return reads || operands.length < 2 ? undefined : "config";
  }
  if (sub === "filter-branch" || sub === "filter-repo") return sub;
  const spec = GIT_SUBCOMMAND_PROGRAMS.get(sub);
  return spec ? optionIn(spec, rest) : undefined;
}

/** The program option a command uses (`--pre`), or undefined when it uses none. */
export function programOption(name: string, args: readonly string[]): string | undefined {
  if (name === "git") return gitProgramOption(args);
  const spec = PROGRAM_OPTIONS.get(name);
  return spec ? optionIn(spec, args) : undefined;
}

function optionIn(spec: ProgramOptions, args: readonly string[]): string | undefined {
  for (const [i, arg] of args.entries()) {
    if (arg === "--") break;
    if (spec.words?.includes(arg)) return arg;
    if (arg.startsWith("--")) {
      const name = arg.includes("=") ? arg.slice(0, arg.indexOf("=")) : arg;
      // Unique prefixes of a long option (`--to-com`) are accepted by getopt_long.
      if (spec.long.some((long) => long === name || (name.length > 3 && long.startsWith(name)))) return name;
      continue;
    }
    if (arg.startsWith("-") && spec.short && [...arg.slice(1)].some((letter) => spec.short!.includes(letter))) return arg;
    if (i === 0 && spec.oldStyle && !arg.startsWith("-") && /^[A-Za-z]+$/.test(arg) && [...arg].some((l) => spec.oldStyle!.includes(l))) return arg;
  }
  return undefined;
}
