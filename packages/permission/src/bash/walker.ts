import type { AnalysisBudget } from "./clock.js";
import type { Node, Parser } from "web-tree-sitter";
import { type Cwds, Findings, type Flow, unchanged, union } from "./findings.js";
import { builtinOpacity } from "./builtins.js";
import { isHarmlessVariable, SimpleCommands } from "./simple-command.js";
import { toSubset } from "./subset.js";
import { staticValue, type Word } from "./words.js";

/** Loops and function bodies run any number of times, so a `cd` inside leaves the directory unknown. */
const REPEATING = new Set(["for_statement", "c_style_for_statement", "while_statement", "function_definition"]);



/** Nested code (`sh -c`, `eval`, heredocs to a shell) analysed at most this deep. */
const MAX_DEPTH = 4;
/** Syntax nested deeper than this (`$($($(…)))`) is opaque rather than walked. */
const MAX_NESTING = 200;

/** Walks a bash syntax tree, collecting commands, paths and opacity; see `analyzeCommand`. */
export class Walker extends Findings {
  readonly #commands = new SimpleCommands(this, (code, cwds, wrapped) => this.#nested(code, cwds, wrapped));
  #depth = 0;
  #nesting = 0;
  #ticks = 0;

  /** Set when the time budget ran out: the rest of the command was not analysed. */
  outOfTime = false;

  constructor(
    readonly parser: Parser,
    home: string,
    /** Once spent, parsing and walking stop (the command is then opaque). */
    readonly budget: AnalysisBudget,
  ) {
    super(home);
  }

  /** Parses and walks a piece of shell code. */
  source(code: string, cwds: Cwds, depth: number): void {
    if (depth > MAX_DEPTH) {
      this.opaque = true;
      return;
    }
    // Only what the subset parser models exactly is walked as it is; anything else is opaque, and
    // its text is still walked (as tree-sitter reads it) so that deny rules can catch what it names.
    const subset = toSubset(code, this.home, this.budget);
    if (!subset.ok) {
      this.opaque = true;
      if (subset.reason === "out of time") this.outOfTime = true;
    }
    const text = subset.ok ? subset.text : code;
    if (this.outOfTime) return;
    const tree = this.parser.parse(text, null, { progressCallback: () => this.#late() });
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
    if (wrapped) this.wrapped++;
    try {
      this.source(code, cwds, this.#depth + 1);
    } finally {
      if (wrapped) this.wrapped--;
    }
  }

  /** Whether the time budget is spent; once it is, everything left is opaque. */
  #late(): boolean {
    if (!this.outOfTime && ++this.#ticks % 64 === 0 && this.budget.spent()) this.outOfTime = true;
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
        // Each command of a pipeline runs in its own subshell, from the same folder.
        for (const child of node.namedChildren) this.#walk(child, cwds);
        return unchanged(cwds);
      case "subshell":
      case "command_substitution":
      case "process_substitution":
        // Its statements run one after another in a subshell: a `cd` inside does not outlive it.
        this.#sequence(node, cwds);
        return unchanged(cwds);
      case "file_redirect":
      case "heredoc_redirect":
      case "herestring_redirect":
        this.#redirect(node, cwds);
        return unchanged(cwds);
      case "variable_assignment":
        this.#assignment(node);
        return this.#generic(node, cwds);
      case "declaration_command":
      case "unset_command": {
        // export/declare/local/readonly/typeset/unset: understood only as plain harmless names.
        const [keyword, ...args] = node.children.filter((c) => c.type !== "comment");
        const values = args.map((a) =>
          a.type === "variable_assignment" ? assignmentText(a, this.home) : a.type === "variable_name" ? a.text : staticValue(a, this.home),
        );
        if (values.some((v) => v === undefined) || builtinOpacity(keyword?.text ?? "", values as string[], isHarmlessVariable) !== undefined) this.opaque = true;
        const slot = this.add(node.text, []);
        if (node.type === "unset_command" && this.wrapped === 0 && !this.opaque) this.alwaysSlots[slot] = "unset *";
        return this.#generic(node, cwds);
      }
      case "test_command":
      case "arithmetic_expansion":
      case "c_style_for_statement":
        this.opaque = true; // [[ ]], (( )): arithmetic and patterns evaluated at run time
        return this.#generic(node, cwds);
      case "function_definition":
        this.opaque = true; // a function can take the name of any command
        return this.#generic(node, cwds);
      case "ERROR":
        this.opaque = true;
        return this.#generic(node, cwds);
      default:
        return this.#generic(node, cwds);
    }
  }

  /** An assignment can change what later commands run, unless it is to a known harmless variable. */
  #assignment(node: Node): void {
    const name = node.childForFieldName("name")?.text ?? "";
    if (!isHarmlessVariable(name)) this.opaque = true;
  }

  /** Children in order, any of which may or may not run (if, case, loops, tests…). */
  #generic(node: Node, cwds: Cwds): Flow {
    const repeating = REPEATING.has(node.type);
    if (repeating) this.repeating++;
    let state = cwds;
    let all = cwds;
    for (const child of node.namedChildren) {
      state = this.#walk(child, state).any;
      all = union(all, state);
    }
    if (repeating) this.repeating--;
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
    // `> >(tee log)`: a pipe to the commands walked just above, not a file.
    if (destination.type === "process_substitution") return;
    const operator = node.children.find((c) => !c.isNamed)?.type ?? "";
    const value = staticValue(destination, this.home);
    // `>&2`, `<&0`, `>&-` duplicate or close descriptors; they name no file.
    if ((operator === ">&" || operator === "<&") && value !== undefined && /^(\d+|-)$/.test(value)) return;
    this.touch(value, cwds, false, operator.includes(">"));
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
      flow = this.#commands.run(words, cwds, { written, around: [], stdin, wrappers: 0 });
    }
    this.opaque ||= outerOpaque;
    return flow;
  }

  #word(node: Node): Word {
    const inner = node.type === "command_name" ? (node.namedChildren[0] ?? node) : node;
    return { node: inner, raw: inner.text, value: staticValue(inner, this.home) };
  }


}

/** The text of `NAME=value` with a static value (the value's quotes removed). */
function assignmentText(node: Node, home: string): string | undefined {
  const name = node.childForFieldName("name")?.text ?? "";
  const value = node.childForFieldName("value");
  if (!value) return `${name}=`;
  const text = staticValue(value, home);
  return text === undefined ? undefined : `${name}=${text}`;
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
