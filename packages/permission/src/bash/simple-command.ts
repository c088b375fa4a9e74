import { resolve } from "node:path";
import { alwaysPattern } from "./arity.js";
import { FILE_COMMANDS } from "./file-commands.js";
import { type Cwds, type Findings, type Flow, unchanged, union } from "./findings.js";
import { expandTilde } from "./paths.js";
import { spell, subcommandHidden } from "./spelling.js";
import { expands, type Word } from "./words.js";
import { isWrapper, unwrap } from "./wrappers.js";

/** Commands that run a string as shell code. */
const EVALUATORS = new Set(["eval", "trap"]);
/** Shells: `-c code` runs a string, no script operand runs stdin. */
const SHELLS = new Set(["bash", "sh", "zsh", "dash", "ksh", "ash", "fish", "mksh", "busybox sh"]);
/** Commands that change what later names mean (aliases, builtins, the command hash) or run a file in this shell. */
const SHELL_STATE = new Set(["source", ".", "alias", "enable", "hash"]);
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

    if (!known(head) || base === "" || reach.wrappers > MAX_WRAPPERS) {
      this.at.opaque = true; // $cmd, $(which x), /bin/r?, "": what runs is not known
      this.at.add(canonical, variants);
      return unchanged(cwds);
    }
    // An expansion or glob where the subcommand goes (`git $X`) could be any subcommand.
    const dynamicAt = new Set(words.map((w, i) => (known(w) ? -1 : i)).filter((i) => i > 0));
    if (dynamicAt.size > 0 && subcommandHidden(canonicalWords, dynamicAt)) this.at.opaque = true;

    if (isWrapper(base)) return this.#wrapper(base, words, canonical, variants, cwds, reach);
    const slot = this.at.add(canonical, variants);
    if (SHELLS.has(base)) this.#shell(values, cwds, reach);
    else if (EVALUATORS.has(base)) {
      this.at.opaque = true;
      const code = base === "trap" ? values.slice(0, 1) : values;
      if (code.length > 0 && code.every((v) => v !== undefined)) this.nested(code.join(" "), cwds, true);
    } else if (SHELL_STATE.has(base)) this.at.opaque = true;
    else if (base === "find") this.#findExec(args, cwds, reach);

    const file = FILE_COMMANDS.get(base);
    const flow = base === "cd" ? this.#cd(values, cwds) : unchanged(cwds);
    if (file && base !== "cd") this.#fileOperands(file, args, cwds);
    if (!this.at.opaque && this.at.wrapped === 0) {
      this.at.alwaysSlots[slot] = alwaysPattern(canonicalWords.map((raw, i) => ({ raw, literal: known(words[i]!) })));
    }
    return flow;
  }

  #wrapper(base: string, words: readonly Word[], canonical: string, variants: string[], cwds: Cwds, reach: Reach): Flow {
    const unwrapped = unwrap(base, words.slice(1).map((w) => w.value));
    for (const dir of unwrapped.directories) this.at.touch(dir, cwds, true, false);
    // `env PATH=/tmp ls`, `sudo LD_PRELOAD=x ls`: the same as an assignment prefix.
    for (const assignment of unwrapped.assignments) if (!isHarmlessVariable(assignment.slice(0, assignment.indexOf("=")))) this.at.opaque = true;
    // The wrapper in front of each spelling of what it runs: `sudo /bin/rm x` is also `sudo rm x`.
    let wrapped: string[] = [];
    if (unwrapped.kind === "command") {
      const prefix = spell(words).words.slice(0, 1 + unwrapped.start).join(" ");
      const inner = spell(words.slice(1 + unwrapped.start));
      wrapped = [inner.canonical, ...inner.forms].map((form) => `${prefix} ${form}`);
    }
    if (unwrapped.kind === "command" && unwrapped.mode === "same") {
      // `timeout 5 rm x` is `rm x`: matched as it, with the wrapper's spellings for deny and ask rules.
      const inner = words.slice(1 + unwrapped.start);
      return this.run(inner, cwds, {
        written: inner.map((w) => w.raw).join(" "),
        around: [canonical, ...variants, ...wrapped],
        stdin: reach.stdin,
        wrappers: reach.wrappers + 1,
      });
    }
    this.at.add(canonical, [...variants, ...wrapped]);
    if (unwrapped.kind === "unknown") this.at.opaque = true;
    else if (unwrapped.kind === "command") {
      const inner = words.slice(1 + unwrapped.start);
      const appends = unwrapped.mode === "appends";
      if (appends) this.at.opaque = true; // xargs: arguments arrive at run time
      if (appends) this.at.wrapped++;
      try {
        this.run(inner, cwds, { written: inner.map((w) => w.raw).join(" "), around: [], stdin: reach.stdin, wrappers: reach.wrappers + 1 });
      } finally {
        if (appends) this.at.wrapped--;
      }
    } else if (unwrapped.kind === "code") {
      for (const code of unwrapped.code) {
        if (code === undefined) this.at.opaque = true;
        else this.nested(code, cwds, false);
      }
    }
    return unchanged(cwds);
  }

  /** `sh -c 'literal'` and a heredoc fed to a shell are analysed; a shell reading anything else is opaque. */
  #shell(values: readonly (string | undefined)[], cwds: Cwds, reach: Reach): void {
    const flag = values.findIndex((v) => v !== undefined && /^-[a-zA-Z]*c[a-zA-Z]*$/.test(v));
    if (flag >= 0) {
      const code = values.slice(flag + 1).find((v) => v === undefined || !v.startsWith("-"));
      if (code === undefined) this.at.opaque = true;
      else this.nested(code, cwds, false);
      return;
    }
    if (values.some((v) => v === undefined)) {
      this.at.opaque = true;
      return;
    }
    const script = values.find((v) => v !== undefined && !v.startsWith("-") && !v.startsWith("+"));
    if (script !== undefined && !values.includes("-s")) return; // runs a file: beyond what rules see
    if (reach.stdin !== null) this.nested(reach.stdin, cwds, false);
    else this.at.opaque = true; // `curl … | sh`: runs whatever arrives on stdin
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
      if (arg.raw.startsWith("-")) {
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

  #cd(values: readonly (string | undefined)[], cwds: Cwds): Flow {
    const operands = values.filter((v) => v === undefined || !v.startsWith("-") || v === "-");
    const target = operands.length === 0 ? "~" : operands[0];
    if (target === undefined || target === "-" || this.at.repeating > 0) {
      this.at.opaque = true; // cannot follow: the working directory becomes unknown
      if (target !== undefined && target !== "-") this.at.touch(target, cwds, true, false);
      return unchanged(cwds);
    }
    this.at.touch(target, cwds, true, false);
    if (target.startsWith("~") && target !== "~" && !target.startsWith("~/")) return unchanged(cwds);
    const path = expandTilde(target, this.at.home);
    const moved = new Set([...cwds].map((cwd) => resolve(cwd, path)));
    return { any: union(cwds, moved), ok: moved };
  }
}
