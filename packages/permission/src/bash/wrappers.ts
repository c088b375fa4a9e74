/**
 * The table of commands that run another command (wrappers), with the grammar of their options:
 * which options take a value, which value is shell code or a folder the command runs in, how many
 * operands come before the command (`timeout 5 cmd`, `flock FILE cmd`, `su USER -c code`), and what
 * runs when no command is given (often a shell reading stdin). An option a wrapper's entry does not
 * list makes what it runs unknown: the call is opaque.
 */

/**
 * How a wrapper runs the command it is given:
 * - `same`: as it is, with another priority, time limit, environment… (`nice`, `timeout`, `env`):
 *   the wrapper is a respelling of the command, matched as the command with the wrapper's forms
 *   checked against deny and ask rules too;
 * - `privileged`: as another user or elsewhere (`sudo`, `su`, `chroot`, `ssh`, `unshare`): the
 *   wrapper is a command of its own that must be allowed as well as the one it runs;
 * - `appends`: with more arguments it reads at run time (`xargs`, `parallel`): what runs cannot be
 *   known, so the whole call is opaque (deny rules still see the command named).
 */
export type WrapperMode = "same" | "privileged" | "appends";

/** One wrapper's grammar. Option names are given with their dashes (`-u`, `--user`). */
export interface WrapperSpec {
  mode: WrapperMode;
  /** Options without a value. */
  flags?: readonly string[];
  /** Options whose value is the next word or attached (`-uroot`, `--user=root`). */
  valued?: readonly string[];
  /** Options whose value is optional and only ever attached (`--kill-child=SIG`, `-m/proc/1/ns/mnt`). */
  optional?: readonly string[];
  /** Valued options naming the folder the command runs in (`env -C dir`, `sudo -D dir`). */
  chdir?: readonly string[];
  /** Valued options whose value is shell code (`su -c`, `flock -c`, `script -c`). */
  code?: readonly string[];
  /** Valued options whose value is split into the command's words (`env -S`, not a shell). */
  splits?: readonly string[];
  /** Options after which no command runs (`command -v`, `taskset -p`). */
  noCommand?: readonly string[];
  /** Options whose value is a program or library that would run (`fakeroot --faked`, `-l`): opaque. */
  runs?: readonly string[];
  /** Operands before the command: `timeout DURATION cmd`, `chroot DIR cmd`, `flock FILE cmd`. */
  leading?: number;
  /** The leading operand is a file it creates or opens for writing (`flock FILE`: the lock file). */
  writesLeading?: boolean;
  /** Its code option runs the code with `sh -c` (`flock -c`, `su -c`): that shell is a program it runs. */
  codeViaShell?: boolean;
  /** Options may also follow the leading operands (`su USER -c code`, `flock FILE -c code`). */
  permute?: boolean;
  /** `nice -10`: a dash followed by digits is an option. */
  numericOptions?: boolean;
  /** `NAME=value` words before the command are environment assignments (`env`, `sudo`). */
  assignments?: boolean;
  /** With no command, it starts a shell that reads stdin (`su`, `unshare`, `script`): opaque. */
  bareRunsShell?: boolean;
  /** The operands are joined with spaces and run by a shell (`watch`, `ssh host …`). */
  joinsCode?: boolean;
}

const same = (spec: Omit<WrapperSpec, "mode"> = {}): WrapperSpec => ({ mode: "same", ...spec });
const privileged = (spec: Omit<WrapperSpec, "mode"> = {}): WrapperSpec => ({ mode: "privileged", ...spec });

/** Commands that run another command; a Map, so names like `constructor` are not found by accident. */
export const WRAPPERS: ReadonlyMap<string, WrapperSpec> = new Map([
  ["sudo", privileged({
    assignments: true,
    flags: ["-A", "-b", "-E", "-H", "-n", "-P", "-S", "-B", "-N", "--askpass", "--background", "--preserve-env", "--set-home", "--non-interactive", "--preserve-groups", "--stdin", "--bell", "--no-update", "--reset-timestamp", "--remove-timestamp"],
    valued: ["-u", "-g", "-p", "-C", "-r", "-t", "-U", "-T", "-h", "--user", "--group", "--prompt", "--close-from", "--role", "--type", "--other-user", "--command-timeout", "--host"],
    chdir: ["-D", "--chdir"],
    runs: ["-R", "--chroot", "-s", "--shell", "-i", "--login", "-e", "--edit"],
    noCommand: ["-l", "-v", "-k", "-K", "-V", "--list", "--validate", "--version", "--help"],
  })],
  ["doas", privileged({ flags: ["-n", "-s", "-L"], valued: ["-u", "-C"], runs: ["-s"], bareRunsShell: true })],
  ["su", privileged({
    flags: ["-", "-l", "--login", "-m", "-p", "--preserve-environment", "-P", "--pty", "-f", "--fast"],
    valued: ["-g", "-G", "--group", "--supp-group", "-w", "--whitelist-environment"],
    runs: ["-s", "--shell"],
    code: ["-c", "--command", "--session-command"],
    leading: 1,
    permute: true,
    bareRunsShell: true,
  })],
  ["runuser", privileged({
    flags: ["-", "-l", "--login", "-m", "-p", "--preserve-environment", "-P", "--pty", "-f", "--fast"],
    valued: ["-u", "--user", "-g", "-G", "--group", "--supp-group", "-w", "--whitelist-environment"],
    runs: ["-s", "--shell"],
    code: ["-c", "--command", "--session-command"],
    permute: true,
    bareRunsShell: true,
  })],
  ["pkexec", privileged({ flags: ["--disable-internal-agent", "--keep-cwd"], valued: ["--user"], bareRunsShell: true })],
  ["chroot", privileged({ flags: ["--skip-chdir"], valued: ["--userspec", "--groups"], leading: 1, bareRunsShell: true })],
  ["ssh", privileged({
    flags: ["-4", "-6", "-A", "-a", "-C", "-f", "-G", "-g", "-K", "-k", "-M", "-N", "-n", "-q", "-s", "-T", "-t", "-V", "-v", "-X", "-x", "-Y", "-y"],
    valued: ["-b", "-c", "-D", "-E", "-e", "-I", "-i", "-J", "-L", "-l", "-m", "-O", "-p", "-Q", "-R", "-S", "-W", "-w", "-B"],
    // -o ProxyCommand=…, LocalCommand, KnownHostsCommand; -F a config holding them.
    runs: ["-o", "-F"],
    leading: 1,
    joinsCode: true,
  })],
  ["env", same({
    flags: ["-i", "-0", "-v", "--ignore-environment", "--null", "--debug", "-", "--ignore-signal", "--default-signal", "--block-signal", "--list-signal-handling"],
    valued: ["-u", "--unset"],
    chdir: ["-C", "--chdir"],
    splits: ["-S", "--split-string"],
    assignments: true,
  })],
  ["command", same({ flags: ["-p"], noCommand: ["-v", "-V"] })],
  ["builtin", same()],
  ["exec", same({ flags: ["-c", "-l"], valued: ["-a"] })],
  ["nohup", same()],
  ["nice", same({ valued: ["-n", "--adjustment"], numericOptions: true })],
  ["ionice", same({ flags: ["-t", "--ignore"], valued: ["-c", "-n", "--class", "--classdata"], noCommand: ["-p", "-P", "-u", "--pid", "--pgid", "--uid"] })],
  ["timeout", same({ flags: ["--foreground", "--preserve-status", "-v", "--verbose", "-f", "-p"], valued: ["-s", "-k", "--signal", "--kill-after"], leading: 1 })],
  ["time", same({ flags: ["-p", "-v", "--portability", "--verbose", "-a", "--append", "-q", "--quiet"], valued: ["-f", "--format"], runs: ["-o", "--output"] })],
  ["stdbuf", same({ valued: ["-i", "-o", "-e", "--input", "--output", "--error"] })],
  ["setsid", same({ flags: ["-c", "--ctty", "-f", "--fork", "-w", "--wait"] })],
  ["taskset", same({ flags: ["-a", "--all-tasks", "-c", "--cpu-list"], leading: 1, noCommand: ["-p", "--pid"] })],
  ["chrt", same({ flags: ["-a", "-b", "-d", "-e", "-f", "-i", "-o", "-r", "-R", "-v", "--all-tasks", "--batch", "--deadline", "--fifo", "--idle", "--other", "--rr", "--reset-on-fork", "--verbose"], valued: ["-T", "-P", "-D", "--sched-runtime", "--sched-period", "--sched-deadline"], leading: 1, noCommand: ["-p", "-m", "--pid", "--max"] })],
  ["flock", same({
    flags: ["-s", "-x", "-e", "-n", "-u", "-o", "-F", "--shared", "--exclusive", "--nonblock", "--nb", "--unlock", "--close", "--no-fork", "--verbose"],
    valued: ["-w", "-E", "--timeout", "--wait", "--conflict-exit-code"],
    code: ["-c", "--command"],
    leading: 1,
    permute: true,
    writesLeading: true,
    codeViaShell: true,
  })],
  ["unbuffer", same({ flags: ["-p"] })],
  ["caffeinate", same({ flags: ["-d", "-i", "-m", "-s", "-u"], valued: ["-t", "-w"] })],
  ["strace", same({ flags: ["-f", "-ff", "-c", "-C", "-d", "-D", "-F", "-h", "-i", "-q", "-qq", "-r", "-t", "-tt", "-ttt", "-T", "-v", "-V", "-x", "-xx", "-y", "-yy", "-Z", "-z", "-k"], valued: ["-e", "-s", "-a", "-b", "-I", "-O", "-S", "-P", "-E", "-X", "-U"], runs: ["-o", "-u"], noCommand: ["-p"] })],
  ["ltrace", same({ flags: ["-f", "-c", "-C", "-i", "-r", "-S", "-t", "-tt", "-ttt", "-T", "-h", "-V"], valued: ["-e", "-s", "-a", "-n", "-l", "-w", "-A", "-D", "-F", "-L", "-x"], runs: ["-o", "-u"], noCommand: ["-p"] })],
  ["busybox", same()],
  ["toybox", same()],
  ["watch", same({ flags: ["-b", "-c", "-d", "-e", "-g", "-t", "-x", "-p", "-w", "--beep", "--color", "--no-color", "--differences", "--errexit", "--chgexit", "--no-title", "--exec", "--precise", "--no-wrap"], valued: ["-n", "--interval", "-q", "--equexit"], joinsCode: true })],
  ["xargs", { mode: "appends", flags: ["-0", "-o", "-p", "-r", "-t", "-x", "--null", "--open-tty", "--interactive", "--no-run-if-empty", "--verbose", "--exit"], valued: ["-a", "-d", "-E", "-I", "-L", "-n", "-P", "-s", "--arg-file", "--delimiter", "--eof", "--replace", "--max-lines", "--max-args", "--max-procs", "--max-chars", "--process-slot-var"], optional: ["-i", "-e", "-l"] }],
  ["parallel", { mode: "appends", valued: ["-j", "-S", "-a", "--jobs", "--sshlogin", "--arg-file", "-d", "--delimiter", "-I", "--joblog", "--results", "--tmpdir"], flags: ["-k", "--keep-order", "-q", "--quote", "-0", "--null", "-v", "--dry-run", "--will-cite"] }],
  ["unshare", privileged({
    flags: ["-f", "--fork", "-r", "--map-root-user", "-c", "--map-current-user", "--map-auto", "-m", "-u", "-i", "-n", "-p", "-U", "-C", "-T", "--mount-proc", "--keep-caps"],
    optional: ["--mount", "--uts", "--ipc", "--net", "--pid", "--user", "--cgroup", "--time", "--kill-child", "--map-users", "--map-groups"],
    valued: ["--map-user", "--map-group", "--propagation", "--setgroups", "-S", "--setuid", "-G", "--setgid", "--monotonic", "--boottime"],
    chdir: ["-w", "--wd"],
    runs: ["-R", "--root"],
    bareRunsShell: true,
  })],
  ["nsenter", privileged({
    flags: ["-a", "--all", "-F", "--no-fork", "--preserve-credentials", "-Z", "--follow-context", "-e", "--env"],
    optional: ["-m", "-u", "-i", "-n", "-p", "-U", "-C", "-T", "--mount", "--uts", "--ipc", "--net", "--pid", "--user", "--cgroup", "--time"],
    valued: ["-t", "--target", "-S", "--setuid", "-G", "--setgid", "--user-parent"],
    runs: ["-r", "--root", "-w", "--wd"],
    bareRunsShell: true,
  })],
  ["setpriv", privileged({
    flags: ["--clear-groups", "--init-groups", "--keep-groups", "--nnp", "--no-new-privs", "--reset-env"],
    valued: ["--reuid", "--regid", "--ruid", "--rgid", "--euid", "--egid", "--groups", "--inh-caps", "--ambient-caps", "--bounding-set", "--securebits", "--pdeathsig", "--selinux-label", "--apparmor-profile", "--landlock-access", "--landlock-rule"],
    noCommand: ["-d", "--dump"],
  })],
  ["prlimit", same({
    optional: ["--as", "--core", "--cpu", "--data", "--fsize", "--locks", "--memlock", "--msgqueue", "--nice", "--nofile", "--nproc", "--rss", "--rtprio", "--rttime", "--sigpending", "--stack", "-v", "-c", "-t", "-d", "-f", "-x", "-l", "-q", "-e", "-n", "-u", "-m", "-r", "-y", "-i", "-s"],
    flags: ["--noheadings", "--raw", "--verbose"],
    valued: ["-o", "--output"],
    noCommand: ["-p", "--pid"],
  })],
  ["fakeroot", same({ flags: ["-u", "--unknown-is-real", "-h", "-v", "--version"], valued: ["-s", "-i", "-b", "--fd-base"], runs: ["-l", "--lib", "--faked"], bareRunsShell: true })],
  ["script", same({
    flags: ["-a", "--append", "-e", "--return", "-f", "--flush", "-q", "--quiet", "--force"],
    valued: ["-E", "--echo", "-m", "--logging-format"],
    runs: ["-I", "--log-in", "-O", "--log-out", "-B", "--log-io", "-T", "--log-timing", "-t", "--timing"],
    code: ["-c", "--command"],
    bareRunsShell: true,
  })],
  ["npx", privileged({ codeViaShell: true, flags: ["-y", "--yes", "--no", "-q", "--quiet", "--no-install", "--ignore-existing"], valued: ["-p", "--package", "--cache", "--registry", "--userconfig"], code: ["-c", "--call", "--shell-auto-fallback"] })],
]);

/** What a wrapper runs, read from the words after its name, with the folder and variables it sets. */
export type Unwrapped = {
  directories: string[];
  assignments: string[];
  /** Files the wrapper itself writes (`flock FILE`). */
  written?: string[];
  /** The shell its code runs under (`sh`), when it runs code through one. */
  shell?: string;
} & (
  /** Not a wrapper, or one that runs nothing here (`command -v x`, `env` alone). */
  | { kind: "none" }
  /** It runs the command made of the words from `start` on. */
  | { kind: "command"; mode: WrapperMode; start: number }
  /** It runs shell code: each string is parsed as a command list (undefined: not known). */
  | { kind: "code"; mode: WrapperMode; code: (string | undefined)[] }
  /** It runs the command made of these words (`env -S 'cmd args'`). */
  | { kind: "split"; mode: WrapperMode; words: string[] }
  /** Its options depend on run-time values, are unknown, or run a program: what it runs cannot be told. */
  | { kind: "unknown"; mode: WrapperMode }
);

/** Whether `name` is a command that runs another one. */
export function isWrapper(name: string): boolean {
  return WRAPPERS.has(name);
}

interface Scan {
  /** Index of the first word of the command (after options and leading operands). */
  start: number;
  options: { name: string; value: string | undefined }[];
  /** The leading operands (`flock FILE`, `timeout DURATION`). */
  leading: string[];
  assignments: string[];
  unknown: boolean;
}

/** Reads a wrapper's options and leading operands strictly: anything its grammar does not list is unknown. */
export function scanWrapper(spec: WrapperSpec, values: readonly (string | undefined)[]): Scan {
  const valued = new Set([...(spec.valued ?? []), ...(spec.chdir ?? []), ...(spec.code ?? []), ...(spec.splits ?? []), ...(spec.runs ?? [])]);
  const flags = new Set([...(spec.flags ?? []), ...(spec.noCommand ?? [])]);
  const optional = new Set(spec.optional ?? []);
  const scan: Scan = { start: values.length, options: [], leading: [], assignments: [], unknown: false };
  let leading = spec.leading ?? 0;
  let optionsOpen = true;
  const unknown = (i: number) => {
    scan.unknown = true;
    scan.start = i;
    return scan;
  };
  for (let i = 0; i < values.length; i++) {
    const word = values[i];
    if (word === undefined) return unknown(i);
    if (optionsOpen && word === "--") {
      optionsOpen = false;
      continue;
    }
    if (optionsOpen && spec.assignments && /^[A-Za-z_][A-Za-z0-9_]*=/.test(word)) {
      scan.assignments.push(word);
      continue;
    }
    if (!optionsOpen || !word.startsWith("-") || (word === "-" && !flags.has("-"))) {
      if (leading > 0) {
        leading--;
        scan.leading.push(word);
        if (!spec.permute) optionsOpen = true;
        continue;
      }
      scan.start = i;
      return scan;
    }
    if (word === "-" || flags.has(word)) {
      scan.options.push({ name: word, value: undefined });
      continue;
    }
    if (spec.numericOptions && /^-\d+$/.test(word)) {
      scan.options.push({ name: word, value: undefined });
      continue;
    }
    if (word.startsWith("--")) {
      const eq = word.indexOf("=");
      const name = eq > 0 ? word.slice(0, eq) : word;
      if (eq > 0 && (valued.has(name) || optional.has(name))) scan.options.push({ name, value: word.slice(eq + 1) });
      else if (eq < 0 && optional.has(name)) scan.options.push({ name, value: undefined });
      else if (eq < 0 && valued.has(name)) {
        if (i + 1 >= values.length || values[i + 1] === undefined) return unknown(i);
        scan.options.push({ name, value: values[++i] });
      } else return unknown(i);
      continue;
    }
    // A cluster of short options: each letter a flag, up to one that takes a value (attached or next).
    for (let j = 1; j < word.length; j++) {
      const name = `-${word[j]}`;
      if (flags.has(name)) {
        scan.options.push({ name, value: undefined });
        continue;
      }
      if (optional.has(name)) {
        scan.options.push({ name, value: word.slice(j + 1) || undefined });
        break;
      }
      if (!valued.has(name)) return unknown(i);
      const attached = word.slice(j + 1);
      if (attached !== "") scan.options.push({ name, value: attached });
      else {
        if (i + 1 >= values.length || values[i + 1] === undefined) return unknown(i);
        scan.options.push({ name, value: values[++i] });
      }
      break;
    }
  }
  return scan;
}

/** What the wrapper `name` runs, given the values of its arguments (undefined: dynamic). */
export function unwrap(name: string, values: readonly (string | undefined)[]): Unwrapped {
  const spec = WRAPPERS.get(name);
  if (!spec) return { kind: "none", directories: [], assignments: [] };
  const scan = scanWrapper(spec, values);
  const { mode } = spec;
  const assignments = scan.assignments;
  const extra = { ...(spec.writesLeading ? { written: scan.leading } : {}), ...(spec.codeViaShell ? { shell: "sh" } : {}) };
  const named = (list: readonly string[] | undefined) => scan.options.filter((o) => (list ?? []).includes(o.name));
  const directories = named(spec.chdir).map((o) => o.value).filter((v) => v !== undefined);
  if (scan.unknown || named(spec.runs).length > 0) return { kind: "unknown", mode, directories, assignments };
  const split = named(spec.splits).map((o) => o.value);
  if (split.length > 0) {
    // `env -S STRING` splits STRING into words by its own rules (quotes, escapes, ${VAR}), not a
    // shell's: read here only when it holds none of them; then its words come before the rest.
    const words = split.length === 1 && split[0] !== undefined && /^[^'"\\$#]*$/.test(split[0]) ? split[0].split(/[ \t\n\v\f\r]+/).filter(Boolean) : undefined;
    if (!words || words.length === 0 || scan.start < values.length) return { kind: "unknown", mode, directories, assignments };
    return { kind: "split", mode, words, directories, assignments };
  }
  const code = named(spec.code).map((o) => o.value);
  if (code.length > 0) {
    // `su USER -c code ARGS`, `flock FILE -c code`: words left after the code go to the shell as $0…; fine.
    return { kind: "code", mode, code, directories, assignments, ...extra };
  }
  if (named(spec.noCommand).length > 0) return { kind: "none", directories, assignments, ...extra };
  if (scan.start >= values.length) {
    if (spec.bareRunsShell) return { kind: "unknown", mode, directories, assignments }; // a shell reading stdin
    return { kind: "none", directories, assignments, ...extra };
  }
  const rest = values.slice(scan.start);
  if (spec.joinsCode) {
    const known = rest.every((v) => v !== undefined);
    return { kind: "code", mode, code: [known ? rest.join(" ") : undefined], directories, assignments };
  }
  if (spec.permute && spec.bareRunsShell && named(["-u", "--user"]).length === 0) {
    // `su USER ARGS…` passes ARGS to the user's shell: what it runs is not a command we can read.
    return { kind: "unknown", mode, directories, assignments };
  }
  if (rest[0] === undefined) return { kind: "unknown", mode, directories, assignments };
  return { kind: "command", mode, start: scan.start, directories, assignments, ...extra };
}
