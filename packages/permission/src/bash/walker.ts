import { resolve } from "node:path";
import type { Node, Parser } from "web-tree-sitter";
import type { PathUse } from "./analyze.js";
import { alwaysPattern } from "./arity.js";
import { FILE_COMMANDS } from "./file-commands.js";
import { expandTilde, isHarmlessDevice, spelledAsDirectory } from "./paths.js";
import { spell, subcommandHidden } from "./spelling.js";
import { expands, staticValue, type Word } from "./words.js";
import { isWrapper, unwrap } from "./wrappers.js";

/** Commands that run a string as shell code. */
const EVALUATORS = new Set(["eval", "trap"]);
/** Shells: `-c code` runs a string, no script operand runs stdin. */
const SHELLS = new Set(["bash", "sh", "zsh", "dash", "ksh", "ash", "fish", "mksh", "busybox sh"]);
/** Commands that change what later names mean (aliases, builtins, the command hash) or run a file in this shell. */
const SHELL_STATE = new Set(["source", ".", "alias", "enable", "hash"]);
/** `find` actions that run a command. */
const FIND_EXEC = new Set(["-exec", "-execdir", "-ok", "-okdir"]);
/** Loops and function bodies run any number of times, so a `cd` inside leaves the directory unknown. */
const REPEATING = new Set(["for_statement", "c_style_for_statement", "while_statement", "function_definition"]);
/**
 * Environment variables whose assignment cannot change what a command runs. Any other assignment
 * (`PATH=…`, `LD_PRELOAD=…`, `GIT_SSH_COMMAND=…`, `BASH_ENV=…`) makes the command opaque.
 */
const SAFE_VARIABLES = /^(?:CI|NODE_ENV|DEBUG|FORCE_COLOR|NO_COLOR|CLICOLOR|TERM|COLUMNS|LINES|LANG|LANGUAGE|LC_[A-Z]+|TZ|RUST_BACKTRACE|RUST_LOG|CARGO_TERM_COLOR|PYTHONUNBUFFERED|PYTHONDONTWRITEBYTECODE|PYTHONHASHSEED|PORT|HOST|VERBOSE|LOG_LEVEL|NODE_NO_WARNINGS|GOOS|GOARCH|CGO_ENABLED|TIMEOUT|TEST_[A-Z0-9_]+)$/;

/** Nested code (`sh -c`, `eval`, heredocs to a shell) analysed at most this deep. */
const MAX_DEPTH = 4;
/** Syntax nested deeper than this (`$($($(…)))`) is opaque rather than walked. */
const MAX_NESTING = 200;
/** Wrappers inside wrappers (`nice nice nice …`) followed at most this far. */
const MAX_WRAPPERS = 16;

/** The possible working directories at a point of the script. */
type Cwds = ReadonlySet<string>;
/** Working directories after a statement: whatever happened, and given that it succeeded. */
interface Flow {
  any: Cwds;
  ok: Cwds;
}

const unchanged = (cwds: Cwds): Flow => ({ any: cwds, ok: cwds });
const union = (a: Cwds, b: Cwds): Cwds => (a === b ? a : new Set([...a, ...b]));

/** How a simple command was reached: its text as written, spellings of the wrappers around it, stdin. */
interface Reach {
  written: string;
  /** Forms of wrappers that run this command as it is (`timeout 5 rm x`): deny and ask rules see them. */
  around: string[];
  /** Static text fed to its stdin by a heredoc or here-string; null when stdin is something else. */
  stdin: string | null;
  wrappers: number;
}

/** Walks a bash syntax tree, collecting commands, paths and opacity; see `analyzeCommand`. */
export class Walker {
  /** Canonical pattern → its other spellings, in order of appearance. */
  readonly commands = new Map<string, Set<string>>();
  /** Canonical pattern → its `always` slot. */
  readonly #slots = new Map<string, number>();
  /** One slot per pattern in order, filled once its opacity is known. */
  readonly alwaysSlots: (string | undefined)[] = [];
  readonly #paths = new Map<string, PathUse>();
  opaque = false;
  #repeating = 0;
  /** Inside code that an opaque command runs: its commands give no `always` suggestions. */
  #wrapped = 0;
  #depth = 0;
  #nesting = 0;

  /** Set when the time budget ran out: the rest of the command was not analysed. */
  outOfTime = false;

  constructor(
    readonly parser: Parser,
    readonly workspace: string,
    readonly home: string,
    /** `performance.now()` after which parsing and walking stop (the command is then opaque). */
    readonly deadline: number,
  ) {}

  /** The touched paths, each once (a write wins over a read of the same path). */
  paths(): PathUse[] {
    return [...this.#paths.values()];
  }

  /** Records a simple command's canonical pattern and other spellings; returns its `always` slot. */
  add(pattern: string, variants: readonly string[]): number {
    let set = this.commands.get(pattern);
    if (!set) {
      set = new Set();
      this.commands.set(pattern, set);
      this.#slots.set(pattern, this.alwaysSlots.push(undefined) - 1);
    }
    for (const v of variants) if (v !== pattern) set.add(v);
    return this.#slots.get(pattern)!;
  }

  /** Parses and walks a piece of shell code. */
  source(code: string, cwds: Cwds, depth: number): void {
    if (depth > MAX_DEPTH) {
      this.opaque = true;
      return;
    }
    const tree = this.parser.parse(code, null, { progressCallback: () => this.#late() });
    if (!tree) {
      this.parser.reset(); // cancelled for time: the next parse starts afresh
      this.opaque = true;
      return;
    }
    const outer = this.#depth;
    this.#depth = depth;
    try {
      if (tree.rootNode.hasError) {
        this.opaque = true; // a syntax error: ask for the whole text as well as what could be read
        if (code.trim() !== "") this.add(code.trim(), []);
      }
      this.#sequence(tree.rootNode, cwds);
    } finally {
      this.#depth = outer;
      tree.delete();
    }
  }

  /** Code run by a command: analysed as its own command list, one level deeper. */
  #nested(code: string, cwds: Cwds, wrapped: boolean): void {
    if (wrapped) this.#wrapped++;
    try {
      this.source(code, cwds, this.#depth + 1);
    } finally {
      if (wrapped) this.#wrapped--;
    }
  }

  /** Whether the time budget is spent; once it is, everything left is opaque. */
  #late(): boolean {
    if (!this.outOfTime && performance.now() > this.deadline) this.outOfTime = true;
    return this.outOfTime;
  }

  #walk(node: Node, cwds: Cwds): Flow {
    if (this.#nesting >= MAX_NESTING || this.#late()) {
      this.opaque = true;
      return unchanged(cwds);
    }
    this.#nesting++;
    try {
      return this.#walkNode(node, cwds);
    } finally {
      this.#nesting--;
    }
  }

  #walkNode(node: Node, cwds: Cwds): Flow {
    switch (node.type) {
      case "comment":
        return unchanged(cwds);
      case "command":
        return this.#command(node, cwds, node.text, []);
      case "redirected_statement":
        return this.#redirected(node, cwds);
      case "list":
        return this.#list(node, cwds);
      case "program":
      case "compound_statement":
        return this.#sequence(node, cwds);
      case "pipeline":
      case "subshell":
      case "command_substitution":
      case "process_substitution":
        // Each runs in a subshell: a `cd` inside does not outlive it.
        for (const child of node.namedChildren) this.#walk(child, cwds);
        return unchanged(cwds);
      case "file_redirect":
      case "heredoc_redirect":
      case "herestring_redirect":
        this.#redirect(node, cwds);
        return unchanged(cwds);
      case "variable_assignment":
        this.#assignment(node);
        return this.#generic(node, cwds);
      case "declaration_command": {
        for (const child of node.namedChildren) if (child.type === "variable_assignment") this.#assignment(child);
        if (/^\s*\S+\s+-[a-zA-Z]*f/.test(node.text)) this.opaque = true; // export -f, declare -f: functions
        this.add(node.text, []);
        return this.#generic(node, cwds);
      }
      case "function_definition":
        this.opaque = true; // a function can take the name of any command
        return this.#generic(node, cwds);
      case "ERROR":
        this.opaque = true;
        return this.#generic(node, cwds);
      case "unset_command": {
        const slot = this.add(node.text, []);
        if (this.#wrapped === 0) this.alwaysSlots[slot] = "unset *";
        return this.#generic(node, cwds);
      }
      default:
        return this.#generic(node, cwds);
    }
  }

  /** An assignment can change what later commands run, unless it is to a known harmless variable. */
  #assignment(node: Node): void {
    const name = node.childForFieldName("name")?.text ?? "";
    if (!SAFE_VARIABLES.test(name)) this.opaque = true;
  }

  /** Children in order, any of which may or may not run (if, case, loops, tests…). */
  #generic(node: Node, cwds: Cwds): Flow {
    const repeating = REPEATING.has(node.type);
    if (repeating) this.#repeating++;
    let state = cwds;
    let all = cwds;
    for (const child of node.namedChildren) {
      state = this.#walk(child, state).any;
      all = union(all, state);
    }
    if (repeating) this.#repeating--;
    return unchanged(all);
  }

  /** Statements run one after another (`;`, newlines). */
  #sequence(node: Node, cwds: Cwds): Flow {
    let flow = unchanged(cwds);
    for (const child of node.namedChildren) flow = this.#walk(child, flow.any);
    return flow;
  }

  /**
   * `a && b`: b runs only where a succeeded; `a || b`: b runs after a failed. Chains nest to the left
   * (`(a && b) || c`); they are walked as a loop, so ten thousand operators are not ten thousand levels.
   */
  #list(node: Node, cwds: Cwds): Flow {
    const links: { and: boolean; right: Node }[] = [];
    let first: Node = node;
    while (first.type === "list") {
      const [left, right, ...rest] = first.namedChildren;
      if (!left || !right || rest.length > 0) return this.#generic(node, cwds);
      links.push({ and: first.children.some((c) => !c.isNamed && c.type === "&&"), right });
      first = left;
    }
    let flow = this.#walk(first, cwds);
    for (const { and, right } of links.reverse()) {
      const r = this.#walk(right, and ? flow.ok : flow.any);
      flow = and ? { any: union(flow.any, r.any), ok: r.ok } : { any: union(flow.any, r.any), ok: union(flow.ok, r.ok) };
    }
    return flow;
  }

  #redirected(node: Node, cwds: Cwds): Flow {
    const redirects = node.childrenForFieldName("redirect");
    const body = node.childForFieldName("body");
    if (body?.type === "command") return this.#command(body, cwds, node.text, redirects);
    // `> f` alone truncates f: a command like any other, asked as written (no `always` prefix).
    if (!body) this.add(node.text.trim(), []);
    const flow = body ? this.#walk(body, cwds) : unchanged(cwds);
    for (const redirect of redirects) this.#redirect(redirect, cwds);
    return flow;
  }

  #redirect(node: Node, cwds: Cwds): void {
    if (node.type !== "file_redirect") {
      this.#generic(node, cwds); // heredocs and here-strings: their text may hold substitutions
      return;
    }
    const destination = node.childForFieldName("destination");
    if (!destination) return;
    this.#generic(destination, cwds);
    const operator = node.children.find((c) => !c.isNamed)?.type ?? "";
    const value = staticValue(destination, this.home);
    // `>&2`, `<&0`, `>&-` duplicate or close descriptors; they name no file.
    if ((operator === ">&" || operator === "<&") && value !== undefined && /^(\d+|-)$/.test(value)) return;
    this.#touch(value, cwds, false, operator.includes(">"));
  }

  /** Records a path operand; operands whose value is not known make the command opaque. */
  #touch(value: string | undefined, cwds: Cwds, isDirectory: boolean, write: boolean): void {
    if (value === undefined || (value.startsWith("~") && value !== "~" && !value.startsWith("~/"))) {
      this.opaque = true;
      return;
    }
    const expanded = expandTilde(value, this.home);
    const directory = isDirectory || spelledAsDirectory(value);
    for (const cwd of cwds) {
      const path = resolve(cwd, expanded);
      if (isHarmlessDevice(path)) continue;
      const known = this.#paths.get(path);
      this.#paths.set(path, { path, directory: directory || (known?.directory ?? false), write: write || (known?.write ?? false) });
    }
  }

  #command(node: Node, cwds: Cwds, written: string, outerRedirects: readonly Node[]): Flow {
    // Opacity found while handling this command (its redirections, operands, substitutions) is its
    // own: it then gets no `always` suggestion.
    const outerOpaque = this.opaque;
    this.opaque = false;
    let stdin: string | null = null;
    for (const child of node.namedChildren) {
      if (child.type.endsWith("_redirect")) this.#redirect(child, cwds);
      else if (child.type === "variable_assignment") {
        this.#assignment(child); // FOO=1 cmd
        this.#generic(child, cwds);
      } else this.#generic(child, cwds); // substitutions inside the name or arguments
    }
    for (const redirect of [...node.namedChildren, ...outerRedirects]) {
      if (redirect.type.endsWith("_redirect")) stdin = stdinText(redirect, this.home) ?? stdin;
    }
    for (const redirect of outerRedirects) this.#redirect(redirect, cwds);
    const nameNode = node.childForFieldName("name");
    let flow = unchanged(cwds);
    if (nameNode) {
      const words = [nameNode, ...node.childrenForFieldName("argument")].map((n) => this.#word(n));
      flow = this.#run(words, cwds, { written, around: [], stdin, wrappers: 0 });
    }
    this.opaque ||= outerOpaque;
    return flow;
  }

  #word(node: Node): Word {
    const inner = node.type === "command_name" ? (node.namedChildren[0] ?? node) : node;
    return { node: inner, raw: inner.text, value: staticValue(inner, this.home) };
  }

  /** A simple command given as words (its own, or those a wrapper runs). */
  #run(words: readonly Word[], cwds: Cwds, reach: Reach): Flow {
    const [head, ...args] = words;
    if (!head) return unchanged(cwds);
    const known = (w: Word) => w.value !== undefined && !expands(w.node);
    const values = args.map((a) => a.value);
    const { base, words: canonicalWords, canonical, forms, directories } = spell(words);
    // Dynamic words stay as written in the canonical form; deny rules still see the rest.
    const variants = [reach.written, ...reach.around, ...forms];
    for (const dir of directories) this.#touch(dir, cwds, true, false);

    if (!known(head) || base === "" || reach.wrappers > MAX_WRAPPERS) {
      this.opaque = true; // $cmd, $(which x), /bin/r?, "": what runs is not known
      this.add(canonical, variants);
      return unchanged(cwds);
    }
    // An expansion or glob where the subcommand goes (`git $X`) could be any subcommand.
    const dynamicAt = new Set(words.map((w, i) => (known(w) ? -1 : i)).filter((i) => i > 0));
    if (dynamicAt.size > 0 && subcommandHidden(canonicalWords, dynamicAt)) this.opaque = true;

    if (isWrapper(base)) return this.#wrapper(base, words, canonical, variants, cwds, reach);
    const slot = this.add(canonical, variants);
    if (SHELLS.has(base)) this.#shell(values, cwds, reach);
    else if (EVALUATORS.has(base)) {
      this.opaque = true;
      const code = base === "trap" ? values.slice(0, 1) : values;
      if (code.length > 0 && code.every((v) => v !== undefined)) this.#nested(code.join(" "), cwds, true);
    } else if (SHELL_STATE.has(base)) this.opaque = true;
    else if (base === "find") this.#findExec(args, cwds, reach);

    const file = FILE_COMMANDS.get(base);
    const flow = base === "cd" ? this.#cd(values, cwds) : unchanged(cwds);
    if (file && base !== "cd") this.#fileOperands(file, args, cwds);
    if (!this.opaque && this.#wrapped === 0) {
      this.alwaysSlots[slot] = alwaysPattern(canonicalWords.map((raw, i) => ({ raw, literal: known(words[i]!) })));
    }
    return flow;
  }

  #wrapper(base: string, words: readonly Word[], canonical: string, variants: string[], cwds: Cwds, reach: Reach): Flow {
    const unwrapped = unwrap(base, words.slice(1).map((w) => w.value));
    for (const dir of unwrapped.directories) this.#touch(dir, cwds, true, false);
    // `env PATH=/tmp ls`, `sudo LD_PRELOAD=x ls`: the same as an assignment prefix.
    for (const assignment of unwrapped.assignments) if (!SAFE_VARIABLES.test(assignment.slice(0, assignment.indexOf("=")))) this.opaque = true;
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
      return this.#run(inner, cwds, {
        written: inner.map((w) => w.raw).join(" "),
        around: [canonical, ...variants, ...wrapped],
        stdin: reach.stdin,
        wrappers: reach.wrappers + 1,
      });
    }
    this.add(canonical, [...variants, ...wrapped]);
    if (unwrapped.kind === "unknown") this.opaque = true;
    else if (unwrapped.kind === "command") {
      const inner = words.slice(1 + unwrapped.start);
      const appends = unwrapped.mode === "appends";
      if (appends) this.opaque = true; // xargs: arguments arrive at run time
      if (appends) this.#wrapped++;
      try {
        this.#run(inner, cwds, { written: inner.map((w) => w.raw).join(" "), around: [], stdin: reach.stdin, wrappers: reach.wrappers + 1 });
      } finally {
        if (appends) this.#wrapped--;
      }
    } else if (unwrapped.kind === "code") {
      for (const code of unwrapped.code) {
        if (code === undefined) this.opaque = true;
        else this.#nested(code, cwds, false);
      }
    }
    return unchanged(cwds);
  }

  /** `sh -c 'literal'` and a heredoc fed to a shell are analysed; a shell reading anything else is opaque. */
  #shell(values: readonly (string | undefined)[], cwds: Cwds, reach: Reach): void {
    const flag = values.findIndex((v) => v !== undefined && /^-[a-zA-Z]*c[a-zA-Z]*$/.test(v));
    if (flag >= 0) {
      const code = values.slice(flag + 1).find((v) => v === undefined || !v.startsWith("-"));
      if (code === undefined) this.opaque = true;
      else this.#nested(code, cwds, false);
      return;
    }
    if (values.some((v) => v === undefined)) {
      this.opaque = true;
      return;
    }
    const script = values.find((v) => v !== undefined && !v.startsWith("-") && !v.startsWith("+"));
    if (script !== undefined && !values.includes("-s")) return; // runs a file: beyond what rules see
    if (reach.stdin !== null) this.#nested(reach.stdin, cwds, false);
    else this.opaque = true; // `curl … | sh`: runs whatever arrives on stdin
  }

  #findExec(args: readonly Word[], cwds: Cwds, reach: Reach): void {
    const exec = args.findIndex((a) => a.value !== undefined && FIND_EXEC.has(a.value));
    if (exec < 0) return;
    this.opaque = true; // runs once per file found, with the file names as arguments
    const end = args.findIndex((a, i) => i > exec && (a.value === ";" || a.value === "+"));
    const inner = args.slice(exec + 1, end >= 0 ? end : undefined);
    if (inner.length === 0) return;
    this.#wrapped++;
    try {
      this.#run(inner, cwds, { written: inner.map((w) => w.raw).join(" "), around: [], stdin: null, wrappers: reach.wrappers + 1 });
    } finally {
      this.#wrapped--;
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
        if (/^[/~.]/.test(after)) this.#touch(after, cwds, /dir/i.test(arg.value!.slice(0, eq)), false);
        continue;
      }
      operands++;
      if (file.modeFirst && (operands === 1 || arg.value?.startsWith("+"))) continue;
      this.#touch(arg.value, cwds, file.directory ?? false, file.write ?? false);
    }
  }

  #cd(values: readonly (string | undefined)[], cwds: Cwds): Flow {
    const operands = values.filter((v) => v === undefined || !v.startsWith("-") || v === "-");
    const target = operands.length === 0 ? "~" : operands[0];
    if (target === undefined || target === "-" || this.#repeating > 0) {
      this.opaque = true; // cannot follow: the working directory becomes unknown
      if (target !== undefined && target !== "-") this.#touch(target, cwds, true, false);
      return unchanged(cwds);
    }
    this.#touch(target, cwds, true, false);
    if (target.startsWith("~") && target !== "~" && !target.startsWith("~/")) return unchanged(cwds);
    const path = expandTilde(target, this.home);
    const moved = new Set([...cwds].map((cwd) => resolve(cwd, path)));
    return { any: union(cwds, moved), ok: moved };
  }
}

/** The static text a heredoc or here-string feeds to stdin; undefined for other redirections. */
function stdinText(node: Node, home: string): string | undefined {
  if (node.type === "herestring_redirect") {
    const word = node.namedChildren[0];
    return word ? staticValue(word, home) : undefined;
  }
  if (node.type !== "heredoc_redirect") return undefined;
  const body = node.namedChildren.find((c) => c.type === "heredoc_body");
  if (!body) return "";
  // An unquoted delimiter expands the body first; with expansions in it, its text is not the script.
  if (body.namedChildren.some((c) => c.type !== "heredoc_content")) return undefined;
  return body.text;
}
