/**
 * Shell builtins that evaluate text as code or set variables that decide what runs (`let`, `read`,
 * `declare`, `mapfile -C`, `printf -v`, `test -v`…), as a table: each entry says when a call is
 * opaque. A builtin not listed here is either harmless (`echo`, `true`, `pwd`) or handled elsewhere
 * (`cd`, `pushd`, `eval`, `source`, `exec`, `command`).
 */

/** The harmless variables (`CI=1`, `LANG=…`) a declaration may set without making the call opaque. */
type Harmless = (name: string) => boolean;

/** Why a builtin call is opaque, or undefined when it is understood. */
type Judge = (args: readonly string[], harmless: Harmless) => string | undefined;

const always = (reason: string): Judge => () => reason;
/** Opaque when one of the arguments (an option) is in `options`, also inside a cluster (`-rv`). */
const withOption = (letters: string, reason: string): Judge => (args) =>
  args.some((a) => /^-[A-Za-z]+$/.test(a) && [...a.slice(1)].some((l) => letters.includes(l))) ? reason : undefined;
/** A declaration (`export`, `declare`…): understood only as plain harmless `NAME` / `NAME=value` words. */
const declaration: Judge = (args, harmless) => {
  for (const arg of args) {
    const eq = arg.indexOf("=");
    const name = eq >= 0 ? arg.slice(0, eq) : arg;
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) || !harmless(name)) return `sets ${name || arg}`;
  }
  return undefined;
};
const SAFE_SET_OPTIONS = new Set(["errexit", "nounset", "pipefail", "xtrace", "verbose", "noclobber", "errtrace", "functrace"]);

/** `set`: only the shell options that change nothing about what runs (`-e`, `-u`, `-o pipefail`…). */
const set: Judge = (args) => {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (!/^[-+][euxvCEThBo]+$/.test(arg)) return "set of positional parameters or options";
    // `-o NAME` (also at the end of a cluster: `-euo pipefail`) takes the next word.
    if (arg.includes("o")) {
      if (!arg.endsWith("o") || !SAFE_SET_OPTIONS.has(args[i + 1] ?? "")) return "set -o";
      i++;
    }
  }
  return undefined;
};

/** Builtin name → how to judge a call. A Map: no prototype keys. */
export const BUILTINS: ReadonlyMap<string, Judge> = new Map<string, Judge>([
  ["let", always("let evaluates arithmetic (subscripts run code)")],
  ["declare", declaration],
  ["typeset", declaration],
  ["export", declaration],
  ["readonly", declaration],
  ["local", declaration],
  ["read", always("read sets variables from input")],
  ["mapfile", always("mapfile sets an array and may run a callback (-C)")],
  ["readarray", always("readarray sets an array and may run a callback (-C)")],
  ["getopts", always("getopts sets variables")],
  ["printf", withOption("v", "printf -v sets a variable (subscripts run code)")],
  ["test", withOption("vR", "test -v evaluates a subscript")],
  ["[", withOption("vR", "[ -v evaluates a subscript")],
  ["unset", (args) => (args.every((a) => /^(-[fvn]|[A-Za-z_][A-Za-z0-9_]*)$/.test(a)) ? undefined : "unset of a subscript")],
  ["set", set],
  ["shopt", always("shopt changes how later words are read")],
  ["enable", always("enable changes which builtins exist")],
  ["alias", always("alias changes what names run")],
  ["unalias", always("unalias changes what names run")],
  ["hash", always("hash changes where names run from")],
  ["source", always("source runs a file in this shell")],
  [".", always(". runs a file in this shell")],
  ["bind", always("bind can run commands")],
  ["complete", always("complete can run commands")],
  ["compgen", always("compgen can run commands")],
  ["compopt", always("compopt changes completion")],
  ["fc", always("fc runs commands from history")],
  ["history", always("history can run commands")],
  ["trap", always("trap runs code on signals")],
  ["eval", always("eval runs text as code")],
  ["wait", withOption("p", "wait -p sets a variable")],
  ["popd", always("popd goes to a folder from the stack")],
  ["caller", always("caller")],
]);

/** Why the builtin call `name args` is opaque (undefined: understood or not a listed builtin). */
export function builtinOpacity(name: string, args: readonly string[], harmless: Harmless): string | undefined {
  return BUILTINS.get(name)?.(args, harmless);
}
