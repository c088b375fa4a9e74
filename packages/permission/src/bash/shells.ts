/**
 * The table of shells and their option grammar: what a shell invocation runs. Only the bash family
 * (whose `-c` code is bash syntax, or a subset of it) has its code analysed; the code of other
 * shells (zsh, fish, csh, PowerShell…) is in another language and is opaque.
 */

/** How a shell reads its arguments. */
interface ShellSpec {
  /** Its `-c` code is bash syntax the analyser can read. */
  bashSyntax: boolean;
  /** Options that take the next word as their value (`-o posix`, `--rcfile f`). */
  valued: readonly string[];
  /** Long options without a value. */
  longFlags: readonly string[];
}

const BASH_LIKE: ShellSpec = {
  bashSyntax: true,
  valued: ["-o", "+o", "-O", "+O"],
  longFlags: ["--norc", "--noprofile", "--posix", "--login", "--verbose", "--restricted", "--noediting", "--pretty-print", "--debugger", "--dump-strings", "--dump-po-strings", "--help", "--version"],
};
const OTHER: ShellSpec = { bashSyntax: false, valued: ["-o", "+o"], longFlags: [] };

/** Every shell name the analyser knows. A Map: no prototype keys. */
export const SHELLS: ReadonlyMap<string, ShellSpec> = new Map([
  ["bash", BASH_LIKE],
  ["rbash", BASH_LIKE],
  ["sh", BASH_LIKE],
  ["dash", BASH_LIKE],
  ["ash", BASH_LIKE],
  ["busybox sh", BASH_LIKE],
  ["ksh", OTHER],
  ["ksh93", OTHER],
  ["mksh", OTHER],
  ["lksh", OTHER],
  ["pdksh", OTHER],
  ["oksh", OTHER],
  ["yash", OTHER],
  ["posh", OTHER],
  ["zsh", OTHER],
  ["fish", OTHER],
  ["csh", OTHER],
  ["tcsh", OTHER],
  ["elvish", OTHER],
  ["nu", OTHER],
  ["xonsh", OTHER],
  ["pwsh", OTHER],
  ["powershell", OTHER],
]);

/** Files that are a shell's stdin when named as its script. */
const STDIN_FILES = new Set(["/dev/stdin", "/dev/fd/0", "/proc/self/fd/0", "-"]);

/** What a shell invocation runs. */
export type ShellRun =
  /** `-c code`: the code (bash syntax). */
  | { kind: "code"; code: string }
  /** Its stdin (no script, `-s`, `/dev/stdin`, `-`). */
  | { kind: "stdin" }
  /** A script file (beyond what rules see; the call is judged by its command line). */
  | { kind: "file" }
  /** Code in another language, an unknown option, a dynamic word: not known. */
  | { kind: "unknown" };

/** Whether `name` (without folder) is a shell. */
export function isShell(name: string): boolean {
  return SHELLS.has(name);
}

/** Reads a shell's arguments (`values`: words after its name; undefined = dynamic) as the shell does. */
export function shellRun(name: string, values: readonly (string | undefined)[]): ShellRun {
  const spec = SHELLS.get(name);
  if (!spec) return { kind: "unknown" };
  let command = false;
  let stdin = false;
  let i = 0;
  for (; i < values.length; i++) {
    const word = values[i];
    if (word === undefined) return { kind: "unknown" };
    if (word === "--" || word === "-") {
      // `-` ends the options like `--`; as bash's script operand it would be a file named `-`.
      if (word === "-" && !command) stdin = true;
      i++;
      break;
    }
    if (!word.startsWith("-") && !word.startsWith("+")) break;
    if (word.startsWith("--")) {
      if (spec.longFlags.includes(word)) continue;
      if (spec.bashSyntax && (word === "--rcfile" || word === "--init-file")) return { kind: "unknown" }; // runs that file first
      return { kind: "unknown" };
    }
    if (spec.valued.includes(word)) {
      if (values[i + 1] === undefined) return { kind: "unknown" };
      i++;
      continue;
    }
    // A cluster like -xec or +x: letters are flags; `o`/`O` in a cluster take the next word.
    for (const letter of word.slice(1)) {
      if (letter === "c") command = true;
      else if (letter === "s") stdin = true;
      else if (letter === "o" || letter === "O") {
        if (values[i + 1] === undefined) return { kind: "unknown" };
        i++;
      } else if (!/[a-zA-Z]/.test(letter)) return { kind: "unknown" };
    }
  }
  const operands = values.slice(i);
  if (operands.some((v) => v === undefined) && (command || operands[0] === undefined)) return { kind: "unknown" };
  if (command) {
    const code = operands[0];
    if (code === undefined || !spec.bashSyntax) return { kind: "unknown" };
    return { kind: "code", code };
  }
  if (!spec.bashSyntax) return operands.length === 0 || stdin ? { kind: "unknown" } : { kind: "file" };
  if (stdin || operands.length === 0 || STDIN_FILES.has(operands[0]!)) return { kind: "stdin" };
  return { kind: "file" };
}
