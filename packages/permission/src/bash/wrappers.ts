import { hasFlag, type OptionSpec, scanOptions } from "./option-scan.js";

/**
 * How a wrapper runs the command it is given:
 * - `same`: as it is, with another priority, time limit, environment… (`nice`, `timeout`, `env`):
 *   the wrapper is a respelling of the command, matched as the command with the wrapper's forms
 *   checked against deny and ask rules too;
 * - `privileged`: as another user or elsewhere (`sudo`, `su`, `chroot`, `ssh`): the wrapper is a
 *   command of its own that must be allowed as well as the one it runs;
 * - `appends`: with more arguments it reads at run time (`xargs`, `parallel`): what runs cannot be
 *   known, so the whole call is opaque (deny rules still see the command named).
 */
export type WrapperMode = "same" | "privileged" | "appends";

interface WrapperSpec extends OptionSpec {
  mode: WrapperMode;
  /** Operands before the command: `timeout DURATION cmd`, `chroot DIR cmd`, `flock FILE cmd`. */
  leading?: number;
  /** Options after which no command runs (`command -v`, `taskset -p`). */
  noCommand?: readonly string[];
  /** Options whose value is shell code (`su -c`, `flock -c`, `env -S`). */
  code?: readonly string[];
  /** The operands are joined with spaces and run by a shell (`watch`, `ssh host …`). */
  joinsCode?: boolean;
}

const same = (spec: Omit<WrapperSpec, "mode"> = {}): WrapperSpec => ({ mode: "same", ...spec });
const privileged = (spec: Omit<WrapperSpec, "mode"> = {}): WrapperSpec => ({ mode: "privileged", ...spec });

/** Commands that run another command; a Map, so names like `constructor` are not found by accident. */
const WRAPPERS: ReadonlyMap<string, WrapperSpec> = new Map([
  ["sudo", privileged({
    assignments: true,
    valued: ["-u", "-g", "-p", "-C", "-r", "-t", "-U", "-T", "-R", "--user", "--group", "--prompt", "--close-from", "--role", "--type", "--other-user", "--command-timeout", "--chroot", "--host"],
    directories: ["-D", "--chdir"],
    noCommand: ["-l", "-v", "-k", "-K", "-V", "-e", "--list", "--validate", "--edit"],
  })],
  ["doas", privileged({ valued: ["-u", "-C"], assignments: true })],
  ["su", privileged({ valued: ["-g", "-G", "-s", "--shell", "--group", "--supp-group", "-w", "--whitelist-environment"], code: ["-c", "--command", "--session-command"], leading: Infinity })],
  ["runuser", privileged({ valued: ["-u", "-g", "-G", "--user", "--group", "--supp-group", "-s", "--shell"], code: ["-c", "--command", "--session-command"] })],
  ["pkexec", privileged({ valued: ["--user"] })],
  ["chroot", privileged({ valued: ["--userspec", "--groups"], leading: 1 })],
  ["ssh", privileged({ valued: ["-b", "-c", "-D", "-E", "-e", "-F", "-I", "-i", "-J", "-L", "-l", "-m", "-O", "-o", "-p", "-Q", "-R", "-S", "-W", "-w", "-B"], leading: 1, joinsCode: true })],
  ["env", same({ valued: ["-u", "--unset"], directories: ["-C", "--chdir"], code: ["-S", "--split-string"], assignments: true })],
  ["command", same({ noCommand: ["-v", "-V"] })],
  ["builtin", same()],
  ["exec", same({ valued: ["-a"] })],
  ["nohup", same()],
  ["nice", same({ valued: ["-n", "--adjustment"], numericOptions: true })],
  ["ionice", same({ valued: ["-c", "-n", "--class", "--classdata"], noCommand: ["-p", "-P", "-u", "--pid", "--pgid", "--uid"] })],
  ["timeout", same({ valued: ["-s", "-k", "--signal", "--kill-after"], leading: 1 })],
  ["time", same({ valued: ["-f", "-o", "--format", "--output"] })],
  ["stdbuf", same({ valued: ["-i", "-o", "-e", "--input", "--output", "--error"] })],
  ["setsid", same()],
  ["taskset", same({ valued: ["--cpu-list"], leading: 1, noCommand: ["-p", "--pid"] })],
  ["chrt", same({ valued: ["-T", "-P", "-D", "--sched-runtime", "--sched-period", "--sched-deadline"], leading: 1, noCommand: ["-p", "-m", "--pid", "--max"] })],
  ["flock", same({ valued: ["-w", "-E", "--timeout", "--wait", "--conflict-exit-code"], code: ["-c", "--command"], leading: 1 })],
  ["unbuffer", same()],
  ["caffeinate", same({ valued: ["-t", "-w"] })],
  ["strace", same({ valued: ["-o", "-e", "-p", "-s", "-u", "-a", "-b", "-I", "-O", "-S", "-P", "-E", "-X"], noCommand: ["-p"] })],
  ["ltrace", same({ valued: ["-o", "-e", "-p", "-s", "-u", "-a", "-n", "-l", "-w"], noCommand: ["-p"] })],
  ["busybox", same()],
  ["toybox", same()],
  ["watch", same({ valued: ["-n", "--interval", "-q", "--equexit"], joinsCode: true })],
  ["xargs", { mode: "appends", valued: ["-a", "-d", "-E", "-I", "-L", "-n", "-P", "-s", "--arg-file", "--delimiter", "--eof", "--replace", "--max-lines", "--max-args", "--max-procs", "--max-chars", "--process-slot-var"] }],
  ["parallel", { mode: "appends", valued: ["-j", "-S", "-a", "--jobs", "--sshlogin", "--arg-file", "-d", "--delimiter", "-I", "--joblog", "--results", "--tmpdir"] }],
]);

/** What a wrapper runs, read from the words after its name, with the folders and variables it sets. */
export type Unwrapped = { directories: string[]; assignments: string[] } & (
  /** Not a wrapper, or one that runs nothing here (`command -v x`, `env` alone). */
  | { kind: "none" }
  /** It runs the command made of the words from `start` on. */
  | { kind: "command"; mode: WrapperMode; start: number }
  /** It runs shell code: each string is parsed as a command list (undefined: not known). */
  | { kind: "code"; mode: WrapperMode; code: (string | undefined)[] }
  /** Its options depend on run-time values: what it runs cannot be told. */
  | { kind: "unknown"; mode: WrapperMode }
);

/** Whether `name` is a command that runs another one. */
export function isWrapper(name: string): boolean {
  return WRAPPERS.has(name);
}

/** What the wrapper `name` runs, given the values of its arguments (undefined: dynamic). */
export function unwrap(name: string, values: readonly (string | undefined)[]): Unwrapped {
  const spec = WRAPPERS.get(name);
  if (!spec) return { kind: "none", directories: [], assignments: [] };
  const scan = scanOptions(values, { ...spec, valued: [...(spec.valued ?? []), ...(spec.code ?? [])] });
  const { mode } = spec;
  const { directories, assignments } = scan;
  const codeOptions = new Set(spec.code ?? []);
  const code = scan.options.filter((o) => codeOptions.has(o.name)).map((o) => o.value);
  if (code.length > 0) return { kind: "code", mode, code, directories, assignments };
  if (scan.unknown) return { kind: "unknown", mode, directories, assignments };
  if ((spec.noCommand ?? []).some((flag) => hasFlag(scan, flag))) return { kind: "none", directories, assignments };
  const start = scan.operands + (spec.leading === Infinity ? values.length : (spec.leading ?? 0));
  if (start >= values.length) return { kind: "none", directories, assignments };
  const rest = values.slice(start);
  if (spec.joinsCode) {
    const known = rest.every((v) => v !== undefined);
    return { kind: "code", mode, code: [known ? rest.join(" ") : undefined], directories, assignments };
  }
  if (rest[0] === undefined) return { kind: "unknown", mode, directories, assignments };
  return { kind: "command", mode, start, directories, assignments };
}
