import type { Node } from "web-tree-sitter";

/** A word of a simple command: its syntax node, its text as written, its value when static. */
export interface Word {
  node: Node;
  raw: string;
  /** The value bash gives it, or undefined when that depends on run time; see {@link staticValue}. */
  value: string | undefined;
}

/**
 * The value bash gives a word when it holds no expansion: quotes removed, escapes resolved, `$HOME`
 * and `${HOME}` replaced by `home`. Undefined when the value depends on run time (other variables,
 * command substitution, arithmetic, `$'…'`). A leading `~` or `~/` is `home`; globs are left as
 * written.
 */
export function staticValue(node: Node, home: string): string | undefined {
  switch (node.type) {
    case "word":
      // A leading unquoted `~` or `~/` is the home folder (bash's tilde expansion).
      if (node.text === "~" || node.text.startsWith("~/")) return home + unescape(node.text.slice(1));
      return unescape(node.text);
    case "number":
      return unescape(node.text);
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

function unescape(text: string): string {
  return text.replace(/\\\n/g, "").replace(/\\(.)/gs, "$1");
}

function isHome(node: Node): boolean {
  return (node.type === "simple_expansion" && node.text === "$HOME") || (node.type === "expansion" && node.text === "${HOME}");
}

/**
 * Whether unquoted text holds a glob (`*`, `?`, `[…]`) or a brace expansion (`{a,b}`, `{1..3}`) that
 * bash would replace with other words. One pass, no regular expression (words can be huge).
 */
function hasExpansion(text: string): boolean {
  let bracket = false;
  let brace = false;
  let braceList = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "\\") i++;
    else if (c === "*" || c === "?") return true;
    else if (c === "[") bracket = true;
    else if (c === "]" && bracket) return true;
    else if (c === "{") brace = true;
    else if (brace && (c === "," || (c === "." && text[i + 1] === "."))) braceList = true;
    else if (c === "}" && braceList) return true;
  }
  return false;
}

/** Whether bash may turn this word into other words (globs `*?[`, braces `{a,b}`) before running. */
export function expands(node: Node): boolean {
  switch (node.type) {
    case "word":
      return hasExpansion(node.text);
    case "concatenation":
      return node.namedChildren.some(expands);
    case "command_name":
      return node.namedChildren.some(expands);
    default:
      return false;
  }
}
