import { ToolInputError } from "../errors.js";

/**
 * Compiles a grep pattern (ripgrep's regex syntax) for the pure-Node search: a JavaScript RegExp with
 * the `m` flag, so `^` and `$` match at line ends, as they do in ripgrep's line-by-line search. Leading
 * inline flags `(?i)`, `(?s)` become RegExp flags. Throws {@link ToolInputError} for an invalid pattern.
 */
export function compileSearchRegex(pattern: string): RegExp {
  let source = pattern;
  let flags = "m";
  const inline = /^\(\?([is]+)\)/.exec(source);
  if (inline) {
    source = source.slice(inline[0].length);
    for (const flag of new Set(inline[1])) flags += flag;
  }
  try {
    return new RegExp(source, `${flags}u`);
  } catch {
    try {
      // Without `u`, escapes such as `\-` or `\/` that ripgrep accepts are allowed too.
      return new RegExp(source, flags);
    } catch (error) {
      throw new ToolInputError("grep", `Invalid regular expression ${JSON.stringify(pattern)}: ${(error as Error).message}`);
    }
  }
}
