import { homedir } from "node:os";
import { basename, resolve } from "node:path";
import type { Node, Parser } from "web-tree-sitter";
import { alwaysPattern } from "./arity.js";
import { bashParser } from "./parser.js";
import { expandTilde, outsideDirectory } from "./paths.js";
import { hidesOperators, staticValue } from "./words.js";

/** What a bash command does, for permission purposes; see {@link analyzeCommand}. */
export interface CommandAnalysis {
  /** One pattern per simple command it runs (as written, with its redirections), in order. */
  patterns: string[];
  /** `always` suggestions: each analysable simple command's prefix by the arity table + ` *`. */
  always: string[];
  /** Directories outside the workspace that file-touching commands and redirections reach. */
  externalDirectories: string[];
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

/** Commands whose operands are paths (checked against the workspace). */
const FILE_COMMANDS = new Set(["cd", "rm", "cp", "mv", "mkdir", "touch", "chmod", "chown", "chgrp", "cat", "rmdir", "ln", "tee", "head", "tail", "truncate"]);
/** File commands whose operands are directories themselves. */
const DIRECTORY_COMMANDS = new Set(["cd", "mkdir", "rmdir"]);
/** File commands whose first operand is a mode or owner, not a path. */
const MODE_FIRST = new Set(["chmod", "chown", "chgrp"]);
/** Commands that run another command given as their arguments. */
const WRAPPERS = new Set([
  "sudo", "doas", "su", "pkexec", "env", "nohup", "nice", "ionice", "timeout", "time", "stdbuf", "command", "builtin",
  "exec", "xargs", "parallel", "watch", "chroot", "setsid", "flock", "unbuffer", "strace", "ltrace", "caffeinate",
]);
/** Commands that run a string as shell code. */
const EVALUATORS = new Set(["eval", "trap"]);
/** Shells: `-c code` runs a string, no script operand runs stdin. */
const SHELLS = new Set(["bash", "sh", "zsh", "dash", "ksh", "ash", "fish", "mksh"]);
/** Commands that change the shell itself (environment, functions), so later commands are not what they seem. */
const SHELL_STATE = new Set(["source", ".", "alias", "set", "shopt", "enable"]);
/** `find` actions that run a command. */
const FIND_EXEC = new Set(["-exec", "-execdir", "-ok", "-okdir"]);
/** Loops and function bodies run any number of times, so a `cd` inside leaves the directory unknown. */
const REPEATING = new Set(["for_statement", "c_style_for_statement", "while_statement", "function_definition"]);

const MAX_DEPTH = 4;

/**
 * Analyses a bash command with tree-sitter-bash into the simple commands it runs through `|`, `&&`,
 * `||`, `;`, subshells, `$(…)`, backticks, process substitution and compound statements. Directory
 * changes by `cd` are followed (within their subshell) to resolve relative paths. Commands that
 * cannot be analysed safely — `eval`, `sh -c`, shells reading stdin, `sudo`/`env`/`xargs`/`timeout`
 * and other wrappers, `find -exec`, env prefixes and assignments, `export`/`source`, here-strings,
 * dynamic command names or file operands, quotes that hide operators, syntax errors — set `opaque`;
 * what they run is still extracted where possible so deny rules can catch it.
 */
export async function analyzeCommand(command: string, options: AnalyzeCommandOptions): Promise<CommandAnalysis> {
  if (typeof command !== "string") throw new TypeError("analyzeCommand: command must be a string");
  if (typeof options?.cwd !== "string" || options.cwd === "") throw new TypeError("analyzeCommand: options.cwd is required");
  const cwd = resolve(options.cwd);
  const walker = new Walker(await bashParser(), resolve(options.workspace ?? cwd), options.home ?? homedir());
  walker.source(command, new Set([cwd]), 0);
  if (walker.opaque && walker.patterns.size === 0 && command.trim() !== "") walker.patterns.add(command.trim());
  return {
    patterns: [...walker.patterns],
    always: [...new Set(walker.alwaysSlots.filter((a) => a !== undefined))],
    externalDirectories: [...walker.external],
    opaque: walker.opaque,
  };
}

/** The possible working directories at a point of the script. */
type Cwds = ReadonlySet<string>;
/** Working directories after a statement: whatever happened, and given that it succeeded. */
interface Flow {
  any: Cwds;
  ok: Cwds;
}

const unchanged = (cwds: Cwds): Flow => ({ any: cwds, ok: cwds });
const union = (a: Cwds, b: Cwds): Cwds => (a === b ? a : new Set([...a, ...b]));

class Walker {
  readonly patterns = new Set<string>();
  /** One slot per simple command in pattern order, filled once its opacity is known. */
  readonly alwaysSlots: (string | undefined)[] = [];
  readonly external = new Set<string>();
  opaque = false;
  #repeating = 0;
  /** Inside code that an opaque command runs: its commands give no `always` suggestions. */
  #wrapped = 0;
  #depth = 0;

  constructor(
    readonly parser: Parser,
    readonly workspace: string,
    readonly home: string,
  ) {}

  /** Parses and walks a piece of shell code. */
  source(code: string, cwds: Cwds, depth: number): void {
    if (depth > MAX_DEPTH) {
      this.opaque = true;
      return;
    }
    const tree = this.parser.parse(code);
    if (!tree) {
      this.opaque = true;
      return;
    }
    const outer = this.#depth;
    this.#depth = depth;
    try {
      if (tree.rootNode.hasError) {
        this.opaque = true; // a syntax error: ask for the whole text as well as what could be read
        if (code.trim() !== "") this.patterns.add(code.trim());
      }
      this.#sequence(tree.rootNode, cwds);
    } finally {
      this.#depth = outer;
      tree.delete();
    }
  }

  /** Code run by an opaque command: analysed for patterns and paths, never for `always`. */
  #wrappedSource(code: string, cwds: Cwds): void {
    this.#wrapped++;
    try {
      this.source(code, cwds, this.#depth + 1);
    } finally {
      this.#wrapped--;
    }
  }

  #walk(node: Node, cwds: Cwds): Flow {
    switch (node.type) {
      case "comment":
        return unchanged(cwds);
      case "command":
        return this.#command(node, cwds, node.text);
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
      case "variable_assignments":
      case "ERROR":
        this.opaque = true;
        return this.#generic(node, cwds);
      case "declaration_command":
        this.opaque = true;
        this.patterns.add(node.text);
        return this.#generic(node, cwds);
      case "unset_command":
        this.patterns.add(node.text);
        if (this.#wrapped === 0) this.alwaysSlots.push("unset *");
        return this.#generic(node, cwds);
      default:
        return this.#generic(node, cwds);
    }
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

  /** `a && b`: b runs only where a succeeded; `a || b`: b runs after a failed. */
  #list(node: Node, cwds: Cwds): Flow {
    const [left, right, ...rest] = node.namedChildren;
    if (!left || !right || rest.length > 0) return this.#generic(node, cwds);
    const and = node.children.some((c) => !c.isNamed && c.type === "&&");
    const l = this.#walk(left, cwds);
    const r = this.#walk(right, and ? l.ok : l.any);
    return and ? { any: union(l.any, r.any), ok: r.ok } : { any: union(l.any, r.any), ok: union(l.ok, r.ok) };
  }

  #redirected(node: Node, cwds: Cwds): Flow {
    const redirects = node.childrenForFieldName("redirect");
    const body = node.childForFieldName("body");
    // The pattern of a redirected simple command includes its redirections, so rules see them.
    if (body?.type === "command") return this.#command(body, cwds, node.text, redirects);
    const flow = body ? this.#walk(body, cwds) : unchanged(cwds);
    for (const redirect of redirects) this.#redirect(redirect, cwds);
    return flow;
  }

  #redirect(node: Node, cwds: Cwds): void {
    if (node.type === "herestring_redirect") {
      this.opaque = true;
      this.#generic(node, cwds);
      return;
    }
    if (node.type !== "file_redirect") {
      this.#generic(node, cwds); // heredocs: their bodies may hold substitutions
      return;
    }
    const destination = node.childForFieldName("destination");
    if (!destination) return;
    this.#generic(destination, cwds);
    const operator = node.children.find((c) => !c.isNamed)?.type ?? "";
    const value = staticValue(destination, this.home);
    // `>&2`, `<&0`, `>&-` duplicate or close descriptors; they name no file.
    if ((operator === ">&" || operator === "<&") && (value === undefined ? false : /^(\d+|-)$/.test(value))) return;
    this.#touch(value, cwds, false);
  }

  /** Records that a file operand is touched; unresolvable operands make the command opaque. */
  #touch(value: string | undefined, cwds: Cwds, isDirectory: boolean): void {
    if (value === undefined || (value.startsWith("~") && value !== "~" && !value.startsWith("~/"))) {
      this.opaque = true;
      return;
    }
    const path = expandTilde(value, this.home);
    for (const cwd of cwds) {
      const outside = outsideDirectory(this.workspace, cwd, path, isDirectory || value === "~");
      if (outside) this.external.add(outside);
    }
  }

  #command(node: Node, cwds: Cwds, pattern: string, outerRedirects: readonly Node[] = []): Flow {
    // Opacity found while handling this command (its redirections, operands, substitutions) is its
    // own: it then gets no `always` suggestion.
    const outerOpaque = this.opaque;
    this.opaque = false;
    const flow = this.#simpleCommand(node, cwds, pattern, outerRedirects);
    this.opaque ||= outerOpaque;
    return flow;
  }

  #simpleCommand(node: Node, cwds: Cwds, pattern: string, outerRedirects: readonly Node[]): Flow {
    const nameNode = node.childForFieldName("name");
    if (nameNode) this.patterns.add(pattern);
    const slot = this.alwaysSlots.push(undefined) - 1;
    let envPrefix = false;
    for (const child of node.namedChildren) {
      if (child.type.endsWith("_redirect")) this.#redirect(child, cwds);
      else if (child.type === "variable_assignment") {
        this.opaque = true; // env prefix: FOO=1 cmd
        envPrefix = true;
        this.#generic(child, cwds);
      } else this.#generic(child, cwds); // substitutions inside the name or arguments
    }
    for (const redirect of outerRedirects) this.#redirect(redirect, cwds);
    if (!nameNode) return unchanged(cwds);
    const nodes = [nameNode.namedChildren[0] ?? nameNode, ...node.childrenForFieldName("argument")];
    const words = nodes.map((n) => ({ node: n, raw: n.text, value: staticValue(n, this.home) }));
    const [head, ...args] = words;
    let opaque = false;

    const name = head!.value;
    if (name === undefined) opaque = true; // $cmd, $(which x)
    else if (head!.raw !== name) {
      // "rm", r\m: quoting hides the real name from rules; ask, and let deny rules see the real one.
      opaque = true;
      this.patterns.add([name, ...args.map((a) => a.raw)].join(" "));
    }
    if (args.some((a) => hidesOperators(a.node))) opaque = true;
    // `FOO=1 rm x` is asked as a whole, and deny rules must still see the command it runs: `rm x`.
    if (envPrefix && name !== undefined && head!.raw === name) this.patterns.add([name, ...args.map((a) => a.raw)].join(" "));

    const base = name === undefined ? "" : basename(name);
    const values = args.map((a) => a.value);
    if (EVALUATORS.has(base)) {
      opaque = true;
      const code = base === "trap" ? values.slice(0, 1) : values;
      if (code.length > 0 && code.every((v) => v !== undefined)) this.#wrappedSource(code.join(" "), cwds);
    } else if (SHELLS.has(base)) {
      const flag = values.findIndex((v) => v !== undefined && /^-[a-zA-Z]*c[a-zA-Z]*$/.test(v));
      if (flag >= 0) {
        opaque = true;
        const code = values.slice(flag + 1).find((v) => v === undefined || !v.startsWith("-"));
        if (code !== undefined) this.#wrappedSource(code, cwds);
      } else if (values.every((v) => v !== undefined && v.startsWith("-")) || values.includes("-s")) {
        opaque = true; // runs whatever arrives on stdin
      }
    } else if (WRAPPERS.has(base) && !(base === "command" && (values.includes("-v") || values.includes("-V")))) {
      opaque = true;
      const suFlag = base === "su" ? values.findIndex((v) => v === "-c" || v === "--command") : -1;
      if (suFlag >= 0) {
        const code = values[suFlag + 1];
        if (code !== undefined) this.#wrappedSource(code, cwds);
      } else {
        const start = values.findIndex((v) => v === undefined || !/^(-.*|[A-Za-z_][A-Za-z0-9_]*=.*|\d+(\.\d+)?[smhd]?)$/.test(v));
        const inner = start >= 0 ? args.slice(start) : [];
        if (inner.length === 1 && inner[0]!.value !== undefined && inner[0]!.raw !== inner[0]!.value) {
          this.#wrappedSource(inner[0]!.value, cwds); // watch "a | b"
        } else if (inner.length > 0) this.#wrappedSource(inner.map((a) => a.raw).join(" "), cwds);
      }
    } else if (SHELL_STATE.has(base)) {
      opaque = true;
    } else if (base === "find") {
      const exec = values.findIndex((v) => v !== undefined && FIND_EXEC.has(v));
      if (exec >= 0) {
        opaque = true;
        const end = values.findIndex((v, i) => i > exec && (v === ";" || v === "+"));
        const inner = args.slice(exec + 1, end >= 0 ? end : undefined).map((a) => a.raw);
        if (inner.length > 0) this.#wrappedSource(inner.join(" "), cwds);
      }
    }

    this.opaque ||= opaque;
    const flow = base === "cd" && name !== undefined ? this.#cd(values, cwds) : unchanged(cwds);
    if (base !== "cd" && FILE_COMMANDS.has(base)) this.#fileOperands(base, args, cwds);
    if (!this.opaque && this.#wrapped === 0) {
      const suggestion = alwaysPattern(words.map((w) => ({ raw: w.raw, literal: w.value !== undefined })));
      this.alwaysSlots[slot] = suggestion;
    }
    return flow;
  }

  #fileOperands(base: string, args: readonly { raw: string; value: string | undefined }[], cwds: Cwds): void {
    let operands = 0;
    for (const arg of args) {
      if (arg.raw.startsWith("-")) {
        // --target-directory=/x and friends carry a path after "=".
        const eq = arg.value?.indexOf("=") ?? -1;
        const after = eq >= 0 ? arg.value!.slice(eq + 1) : "";
        if (/^[/~.]/.test(after)) this.#touch(after, cwds, /dir/i.test(arg.value!.slice(0, eq)));
        continue;
      }
      operands++;
      if (MODE_FIRST.has(base) && (operands === 1 || arg.value?.startsWith("+"))) continue;
      this.#touch(arg.value, cwds, DIRECTORY_COMMANDS.has(base));
    }
  }

  #cd(values: readonly (string | undefined)[], cwds: Cwds): Flow {
    const operands = values.filter((v) => v === undefined || !v.startsWith("-") || v === "-");
    const target = operands.length === 0 ? "~" : operands[0];
    if (target === undefined || target === "-" || this.#repeating > 0) {
      this.opaque = true; // cannot follow: the working directory becomes unknown
      if (target !== undefined && target !== "-") this.#touch(target, cwds, true);
      return unchanged(cwds);
    }
    this.#touch(target, cwds, true);
    if (target.startsWith("~") && target !== "~" && !target.startsWith("~/")) return unchanged(cwds);
    const path = expandTilde(target, this.home);
    const moved = new Set([...cwds].map((cwd) => resolve(cwd, path)));
    return { any: union(cwds, moved), ok: moved };
  }
}
