import { alwaysPattern } from "./arity.js";
import { FILE_COMMANDS } from "./file-commands.js";
import { type Cwds, type Findings, type Flow, unchanged, union } from "./findings.js";
import { expandTilde } from "./paths.js";
import { spell, subcommandHidden } from "./spelling.js";
import { builtinOpacity } from "./builtins.js";
import { programOption } from "./program-options.js";
import { isShell, shellRun } from "./shells.js";
import { expands, type Word } from "./words.js";
import { isWrapper, unwrap } from "./wrappers.js";

/** Commands that run a string as shell code: analysed for deny rules, and opaque. */
const EVALUATORS = new Set(["eval", "trap"]);
/** `find` actions that run a command. */
const FIND_EXEC = new Set(["-exec", "-execdir", "-ok", "-okdir"]);
/**
 * Environment variables whose assignment cannot change what a command runs. Any other assignment
 * (`PATH=…`, `LD_PRELOAD=…`, `GIT_SSH_COMMAND=…`, `BASH_ENV=…`) makes the command opaque.
 */
const SAFE_VARIABLES = /^(?:CI|NODE_ENV|DEBUG|FORCE_COLOR|NO_COLOR|CLICOLOR|TERM|COLUMNS|LINES|LANG|LANGUAGE|LC_[A-Z]+|TZ|RUST_BACKTRACE|RUST_LOG|CARGO_TERM_COLOR|PYTHONUNBUFFERED|PYTHONDONTWRITEBYTECODE|PYTHONHASHSEED|PORT|HOST|VERBOSE|LOG_LEVEL|NODE_NO_WARNINGS|GOOS|GOARCH|CGO_ENABLED|TIMEOUT|TEST_[A-Z0-9_]+)$/;

/** Wrappers inside wrappers (`nice nice nice …`) followed at most this far. */
const MAX_WRAPPERS = 16;

/** Whether assigning this variable cannot change what a command runs (`CI`, `NODE_ENV`, `LANG`…). */
export function isHarmlessVariable(name: string): boolean {
  return SAFE_VARIABLES.test(name);
}

/** How a simple command was reached: its text as written, spellings of the wrappers around it, stdin. */
export interface Reach {
  written: string;
  /** Forms of wrappers that run this command as it is (`timeout 5 rm x`): deny and ask rules see them. */
  around: string[];
  /** Static text fed to its stdin by a heredoc or here-string; null when stdin is something else. */
  stdin: string | null;
  wrappers: number;
}

/**
 * Reads simple commands word by word: canonical form and spellings, wrappers and what they run,
 * shells given code, `eval`, `find -exec`, file operands and `cd`. Code they run is handed back to
 * the tree walker through `nested`.
 */
export class SimpleCommands {
  constructor(
    private readonly at: Findings,
    /** Analyses code a command runs as its own command list (`wrapped`: no `always` suggestions in it). */
    private readonly nested: (code: string, cwds: Cwds, wrapped: boolean) => void,
  ) {}

  /** A simple command given as words (its own, or those a wrapper runs). */
  run(words: readonly Word[], cwds: Cwds, reach: Reach): Flow {
    const [head, ...args] = words;
    if (!head) return unchanged(cwds);
    const known = (w: Word) => w.value !== undefined && !expands(w.node);
    const values = args.map((a) => a.value);
    const { base, words: canonicalWords, canonical, forms, directories } = spell(words);
    // Dynamic words stay as written in the canonical form; deny rules still see the rest.
    const variants = [reach.written, ...reach.around, ...forms];
    for (const dir of directories) this.at.touch(dir, cwds, true, false);

    // $cmd, $(which x), /bin/r?, "": what runs is not known. A name with a blank (`'git status'`)
    // is one word naming a program of that name, not the command its words spell.
    if (!known(head) || base === "" || /\s/.test(head.value!) || reach.wrappers > MAX_WRAPPERS) {
      this.at.opaque = true;
      this.at.add(canonical, variants);
      return unchanged(cwds);
    }
    // An expansion or glob where the subcommand goes (`git $X`) could be any subcommand.
    const dynamicAt = new Set(words.map((w, i) => (known(w) ? -1 : i)).filter((i) => i > 0));
    if (dynamicAt.size > 0 && subcommandHidden(canonicalWords, dynamicAt)) this.at.opaque = true;

    if (isWrapper(base)) return this.#wrapper(base, words, canonical, variants, cwds, reach);
    const slot = this.at.add(canonical, variants);
    const literal = values.every((v) => v !== undefined) ? (values as string[]) : undefined;
    // Builtins that evaluate text or set variables, options whose value is a program: opaque.
    if (literal && (builtinOpacity(base, literal, isHarmlessVariable) !== undefined || programOption(base, literal) !== undefined)) this.at.opaque = true;
    if (!literal && (programOption(base, values.filter((v) => v !== undefined)) !== undefined)) this.at.opaque = true;
    if (isShell(base)) this.#shell(base, values, cwds, reach);
    else if (EVALUATORS.has(base)) {
      this.at.opaque = true;
      const code = base === "trap" ? values.slice(0, 1) : values;
      if (code.length > 0 && code.every((v) => v !== undefined)) this.nested(code.join(" "), cwds, true);
    } else if (base === "find") this.#findExec(args, cwds, reach);

    const file = FILE_COMMANDS.get(base);
    const flow = base === "cd" || base === "pushd" ? this.#cd(values, cwds, base === "pushd") : unchanged(cwds);
    if (file && base !== "cd" && base !== "pushd") this.#fileOperands(file, args, cwds);
    if (!this.at.opaque && this.at.wrapped === 0) {
      this.at.alwaysSlots[slot] = alwaysPattern(canonicalWords.map((raw, i) => ({ raw, literal: known(words[i]!) })));
    }
    return flow;
  }

  #wrapper(base: string, words: readonly Word[], canonical: string, variants: string[], cwds: Cwds, reach: Reach): Flow {
    const unwrapped = unwrap(base, words.slice(1).map((w) => w.value));
    for (const dir of unwrapped.directories) this.at.touch(dir, cwds, true, false);
    for (const file of unwrapped.written ?? []) this.at.touch(file, cwds, false, true);
    // `env PATH=/tmp ls`, `sudo LD_PRELOAD=x ls`: the same as an assignment prefix.
    for (const assignment of unwrapped.assignments) if (!isHarmlessVariable(assignment.slice(0, assignment.indexOf("=")))) this.at.opaque = true;
    // The wrapper in front of each spelling of what it runs: `sudo /bin/rm x` is also `sudo rm x`.
    let wrapped: string[] = [];
    if (unwrapped.kind === "command") {
      const prefix = spell(words).words.slice(0, 1 + unwrapped.start).join(" ");
      const inner = spell(words.slice(1 + unwrapped.start));
      wrapped = [inner.canonical, ...inner.forms].map((form) => `${prefix} ${form}`);
    }
    // `env -C dir cmd`, `sudo -D dir cmd`: the command runs in that folder.
    const chdir = unwrapped.directories.at(-1);
    const innerCwds: Cwds = chdir === undefined ? cwds : new Set([...cwds].map((cwd) => this.at.join(cwd, chdir)));
    if (unwrapped.kind === "command" && unwrapped.mode === "same") {
      // `timeout 5 rm x` is `rm x`: matched as it, with the wrapper's spellings for deny and ask rules.
      const inner = words.slice(1 + unwrapped.start);
      this.run(inner, innerCwds, {
        written: inner.map((w) => w.raw).join(" "),
        around: [canonical, ...variants, ...wrapped],
        stdin: reach.stdin,
        wrappers: reach.wrappers + 1,
      });
      return unchanged(cwds);
    }
    if (unwrapped.kind === "split") {
      // `env -S 'A=1 rm x'` is `env A=1 rm x`: the words, as plain as the string was, read by env
      // again (assignments and options may come first).
      const inner = [words[0]!, ...unwrapped.words.map((value) => ({ node: words[0]!.node, raw: value, value }))];
      this.run(inner, innerCwds, { written: inner.map((w) => w.value).join(" "), around: [canonical, ...variants], stdin: reach.stdin, wrappers: reach.wrappers + 1 });
      return unchanged(cwds);
    }
    this.at.add(canonical, [...variants, ...wrapped]);
    if (unwrapped.kind === "unknown") this.at.opaque = true;
    else if (unwrapped.kind === "command") {
      const inner = words.slice(1 + unwrapped.start);
      const appends = unwrapped.mode === "appends";
      if (appends) this.at.opaque = true; // xargs: arguments arrive at run time
      if (appends) this.at.wrapped++;
      try {
        this.run(inner, innerCwds, { written: inner.map((w) => w.raw).join(" "), around: [], stdin: reach.stdin, wrappers: reach.wrappers + 1 });
      } finally {
        if (appends) this.at.wrapped--;
      }
    } else if (unwrapped.kind === "code") {
      for (const code of unwrapped.code) {
        if (code === undefined) this.at.opaque = true;
        else {
          // `flock f -c code` runs `sh -c code`: that shell is a program run too.
          if (unwrapped.shell) this.at.add(`${unwrapped.shell} -c ${code}`, []);
          this.nested(code, innerCwds, false);
        }
      }
    }
    return unchanged(cwds);
  }

  /**
   * `sh -c 'literal'` and a heredoc or here-string fed to a shell are analysed; a shell reading
   * anything else (a pipe, code in another shell's language, an unknown option) is opaque.
   */
  #shell(base: string, values: readonly (string | undefined)[], cwds: Cwds, reach: Reach): void {
    const run = shellRun(base, values);
    if (run.kind === "code") this.nested(run.code, cwds, false);
    else if (run.kind === "stdin") {
      if (reach.stdin !== null) this.nested(reach.stdin, cwds, false);
      else this.at.opaque = true; // `curl … | sh`: runs whatever arrives on stdin
    } else if (run.kind === "unknown") this.at.opaque = true;
    // "file": runs a script file, beyond what rules see (the command line is judged).
  }

  #findExec(args: readonly Word[], cwds: Cwds, reach: Reach): void {
    const exec = args.findIndex((a) => a.value !== undefined && FIND_EXEC.has(a.value));
    if (exec < 0) return;
    this.at.opaque = true; // runs once per file found, with the file names as arguments
    const end = args.findIndex((a, i) => i > exec && (a.value === ";" || a.value === "+"));
    const inner = args.slice(exec + 1, end >= 0 ? end : undefined);
    if (inner.length === 0) return;
    this.at.wrapped++;
    try {
      this.run(inner, cwds, { written: inner.map((w) => w.raw).join(" "), around: [], stdin: null, wrappers: reach.wrappers + 1 });
    } finally {
      this.at.wrapped--;
    }
  }

  #fileOperands(file: { directory?: boolean; modeFirst?: boolean; write?: boolean }, args: readonly Word[], cwds: Cwds): void {
    let operands = 0;
    for (const arg of args) {
      if (arg.node.type === "process_substitution") continue; // `diff <(a) <(b)`: pipes, not files
      if ((arg.value ?? arg.raw).startsWith("-")) {
        // --target-directory=/x and friends carry a path after "=".
        const eq = arg.value?.indexOf("=") ?? -1;
        const after = eq >= 0 ? arg.value!.slice(eq + 1) : "";
        if (/^[/~.]/.test(after)) this.at.touch(after, cwds, /dir/i.test(arg.value!.slice(0, eq)), false);
        continue;
      }
      operands++;
      if (file.modeFirst && (operands === 1 || arg.value?.startsWith("+"))) continue;
      this.at.touch(arg.value, cwds, file.directory ?? false, file.write ?? false);
    }
  }

  /** `cd DIR`, `pushd DIR`: the folder later commands of the list run in. */
  #cd(values: readonly (string | undefined)[], cwds: Cwds, pushd: boolean): Flow {
    const dashDash = values.indexOf("--");
    const operands = dashDash >= 0 ? values.slice(dashDash + 1) : values.filter((v) => v === undefined || !v.startsWith("-") || v === "-");
    const target = operands.length === 0 ? (pushd ? undefined : "~") : operands[0];
    // `pushd` alone or `pushd +N` rotates the folder stack: where it lands is not in the words.
    if (target === undefined || target === "-" || this.at.repeating > 0 || (pushd && /^[+-]\d+$/.test(target))) {
      this.at.opaque = true; // cannot follow: the working directory becomes unknown
      if (target !== undefined && target !== "-") this.at.touch(target, cwds, true, false);
      return unchanged(cwds);
    }
    this.at.touch(target, cwds, true, false);
    if (target.startsWith("~") && target !== "~" && !target.startsWith("~/")) return unchanged(cwds);
    const path = expandTilde(target, this.at.home);
    const moved = new Set([...cwds].map((cwd) => this.at.join(cwd, path)));
    return { any: union(cwds, moved), ok: moved };
  }
}
