import type { Node } from "web-tree-sitter";

/**
 * The value bash gives a word when it holds no expansion: quotes removed, escapes resolved, `$HOME`
 * and `${HOME}` replaced by `home`. Undefined when the value depends on run time (other variables,
 * command substitution, arithmetic, `$'…'`). Tilde and globs are left as written.
 */
export function staticValue(node: Node, home: string): string | undefined {
  switch (node.type) {
    case "word":
    case "number":
      return node.text.replace(/\\\n/g, "").replace(/\\(.)/gs, "$1");
    case "raw_string":
      return node.text.slice(1, -1);
    case "string": {
      let out = "";
      for (const child of node.namedChildren) {
        if (child.type === "string_content") out += child.text.replace(/\\\n/g, "").replace(/\\([$`"\\])/g, "$1");
        else if (isHome(child)) out += home;
        else return undefined;
      }
      return out;
    }
    case "concatenation": {
      let out = "";
      for (const child of node.namedChildren) {
        const part = staticValue(child, home);
        if (part === undefined) return undefined;
        out += part;
      }
      return out;
    }
    case "simple_expansion":
    case "expansion":
      return isHome(node) ? home : undefined;
    case "command_name": {
      const inner = node.namedChildren[0];
      return inner ? staticValue(inner, home) : undefined;
    }
    default:
      return undefined;
  }
}

function isHome(node: Node): boolean {
  return (node.type === "simple_expansion" && node.text === "$HOME") || (node.type === "expansion" && node.text === "${HOME}");
}

const OPERATOR = /[;&|`<>\n]|\$\(/;

/**
 * Whether quoting hides shell operators in this word (`"a; b"`, `'x | y'`, `$'…'`): harmless to
 * bash itself, but a command that hands its argument to a shell (ssh, watch, su -c…) would run them.
 */
export function hidesOperators(node: Node): boolean {
  switch (node.type) {
    case "raw_string":
      return OPERATOR.test(node.text);
    case "ansi_c_string":
      return true;
    case "string":
      return node.namedChildren.some((c) => c.type === "string_content" && OPERATOR.test(c.text));
    case "concatenation":
      return node.namedChildren.some(hidesOperators);
    default:
      return false;
  }
}
