// The oracle of the shell differential test (test/shell-differential.test.ts) and its benchmark:
// commands run under real bash inside bubblewrap, where /usr/bin, /usr/sbin and /usr/local/bin (and
// so /bin and /sbin) hold a logging shim for every program; wrappers and shells are passed through
// to the real program after logging. Each command runs in its own fixture folder; every file
// created, changed or removed there is a write. `check` compares with the analysis.
import { spawn } from "node:child_process";
import { chmodSync, existsSync, lstatSync, lutimesSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { analyzeCommand, type CommandAnalysis } from "@lathe/permission";
import { realpathLoose } from "@lathe/tools";
import { bwrapIsolation, probeBwrap } from "../packages/tools/src/bash/sandbox.js";


/** Programs passed through to the real binary after logging, so that what they run is seen too. */
const PASS_THROUGH = ["bash", "sh", "dash", "rbash", "env", "timeout", "nice", "nohup", "stdbuf", "setsid", "xargs", "find", "flock", "time"];
/** Where things are inside the sandbox. */
const INSIDE = { cases: "/mnt/s", log: "/mnt/log", tool: "/mnt/tool", real: "/opt/real" };
const OLD = new Date("2001-01-01T00:00:00Z");

// Thousands of small fixture folders: on a memory file system where there is one.
const newRoot = () => realpathSync(mkdtempSync(join(existsSync("/dev/shm") ? "/dev/shm" : tmpdir(), "lathe-diff-")));
/** Sandboxes run side by side (one per core of a CI runner). */
const SHARDS = 2;

/** The files of a fixture, relative to the case folder (`ws` is the working directory). */
function makeFixture(dir: string): void {
  for (const sub of ["ws/dir", "ws/secrets", "ws/.git", "out", "home"]) mkdirSync(join(dir, sub), { recursive: true });
  for (const file of ["ws/a", "ws/b", "ws/dir/c", "ws/secrets/k", "ws/.git/config"]) writeFileSync(join(dir, file), "x\n");
  symlinkSync("../out", join(dir, "ws/link"));
  for (const entry of listTree(dir)) lutimesSync(join(dir, entry), OLD, OLD);
}

function listTree(dir: string, prefix = ""): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(dir, prefix))) {
    const rel = prefix ? `${prefix}/${name}` : name;
    out.push(rel);
    if (lstatSync(join(dir, rel)).isDirectory()) out.push(...listTree(dir, rel));
  }
  return out;
}

// dash starts in half the time bash takes, and reads no startup file a command could point it at.
const SHIM = `#!${INSIDE.real}/dash
c=$LATHE_CASE
# Without LATHE_CASE (\`env -i\`), the case is the fixture folder it runs in (a background job may
# run after the driver has moved on), else the one running now.
case $c in ''|*[!0-9]*)
  d=$(pwd -P)
  case $d in ${INSIDE.cases}/*) c=\${d#${INSIDE.cases}/}; c=\${c%%/*};; *) read -r c < /mnt/current/case;; esac;;
esac
printf '%s\\0' "$#" "$0" "$@" >> "${INSIDE.log}/$c.exec"
n=\${0##*/}
case $n in ${PASS_THROUGH.join("|")}) exec "${INSIDE.real}/$n" "$@";; esac
exit 0
`;

const DRIVER = `i=$1
while IFS= read -r -d '' cmd; do
  cd "${INSIDE.cases}/$i/ws" || exit 90
  printf '%s' "$i" > /mnt/current/case
  LATHE_CASE=$i HOME=${INSIDE.cases}/$i/home PATH=/usr/bin:/bin ${INSIDE.real}/timeout -s KILL 5 ${INSIDE.real}/bash -c "$cmd" </dev/null >/dev/null 2>&1
  [ $? = 137 ] && printf '%s\\n' "$i" >> ${INSIDE.log}/killed
  i=$((i+1))
done < /mnt/cmds/$2
${INSIDE.real}/sleep 0.3
`;

/** Runs the commands under bash in the shimmed sandbox; returns per case the programs run and the host paths written. */
async function runUnderBash(root: string, commands: readonly string[]): Promise<{ execs: string[][][]; writes: string[][] }> {
  const shims = join(root, "shims");
  const tool = join(root, "tool");
  const log = join(root, "log");
  const cases = join(root, "s");
  for (const dir of [shims, tool, log, cases]) mkdirSync(dir, { recursive: true });
  writeFileSync(join(tool, "shim"), SHIM);
  chmodSync(join(tool, "shim"), 0o755);
  writeFileSync(join(tool, "driver"), DRIVER);
  const names = new Set<string>();
  for (const bin of ["/usr/bin", "/usr/sbin", "/usr/local/bin", "/usr/local/sbin"]) {
    try {
      for (const name of readdirSync(bin)) names.add(name);
    } catch {
      // a folder this system does not have
    }
  }
  for (const name of names) symlinkSync(`${INSIDE.tool}/shim`, join(shims, name));
  commands.forEach((_, i) => makeFixture(join(cases, String(i))));
  const cmds = join(root, "cmds");
  mkdirSync(cmds);
  const size = Math.ceil(commands.length / SHARDS);
  const shards = Array.from({ length: SHARDS }, (_, k) => ({ offset: k * size, commands: commands.slice(k * size, (k + 1) * size) }));
  shards.forEach((shard, k) => writeFileSync(join(cmds, String(k)), shard.commands.map((c) => `${c}\0`).join("")));
  await Promise.all(shards.map((shard, k) => sandboxed(root, cases, log, tool, cmds, shims, shard.offset, k)));
  try {
    const killed = readFileSync(join(log, "killed"), "utf8").trim().split("\n").map(Number);
    console.log(`the shell oracle killed ${killed.length} command(s) that ran over 5 s:`, killed.map((i) => JSON.stringify(commands[i])).join(", "));
  } catch {
    // none was
  }
  const execs = commands.map((_, i) => parseExecLog(join(log, `${i}.exec`)));
  const writes = commands.map((_, i) => changedPaths(join(cases, String(i))));
  return { execs, writes };
}

/** One sandbox running one shard of the commands through the driver. */
function sandboxed(root: string, cases: string, log: string, tool: string, cmds: string, shims: string, offset: number, shard: number): Promise<void> {
  // The case a shim logs to when a command cleared LATHE_CASE from its environment (`env -i`).
  const current = join(root, `current-${shard}`);
  mkdirSync(current);
  const args = [
    "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp",
    "--tmpfs", "/opt", "--ro-bind", "/usr/bin", INSIDE.real,
    "--tmpfs", "/mnt", "--bind", cases, INSIDE.cases, "--bind", log, INSIDE.log, "--ro-bind", tool, INSIDE.tool, "--ro-bind", cmds, "/mnt/cmds", "--bind", current, "/mnt/current",
    ...["/usr/bin", "/usr/sbin", "/usr/local/bin", "/usr/local/sbin"].flatMap((bin) => ["--ro-bind", shims, bin]),
    // The isolation the bash tool's sandbox found to work here (its own user namespace where it can).
    ...bwrapIsolation(probeBwrap({ type: "bwrap" })),
    "--unshare-pid", "--unshare-net", "--die-with-parent", "--chdir", "/mnt",
    "--", `${INSIDE.real}/bash`, "-p", `${INSIDE.tool}/driver`, String(offset), String(shard),
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(probeBwrap({ type: "bwrap" }), args, { env: { PATH: "/usr/bin:/bin" }, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`the sandboxed driver failed (${code}): ${stderr}`))));
  });
}

function parseExecLog(file: string): string[][] {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return [];
  }
  const fields = text.split("\0");
  const out: string[][] = [];
  for (let at = 0; at < fields.length - 1; ) {
    const count = Number(fields[at]);
    out.push(fields.slice(at + 1, at + 2 + count));
    at += 2 + count;
  }
  return out;
}

const FIXTURE_ENTRIES = (() => {
  const probe = join(tmpdir(), `lathe-diff-probe-${process.pid}`);
  rmSync(probe, { recursive: true, force: true });
  mkdirSync(probe);
  makeFixture(probe);
  const entries = new Set(listTree(probe));
  rmSync(probe, { recursive: true, force: true });
  return entries;
})();

/** Host paths created, changed or removed in a case folder (relative to it). */
function changedPaths(dir: string): string[] {
  const now = new Set(listTree(dir));
  const changed: string[] = [];
  for (const entry of now) {
    const stat = lstatSync(join(dir, entry));
    if (!FIXTURE_ENTRIES.has(entry)) changed.push(entry);
    else if (!stat.isDirectory() && stat.mtimeMs !== OLD.getTime()) changed.push(entry);
  }
  for (const entry of FIXTURE_ENTRIES) if (!now.has(entry)) changed.push(entry);
  return changed;
}

const SYSTEM_BIN = new Set(["/bin", "/usr/bin", "/usr/sbin", "/sbin", "/usr/local/bin", "/usr/local/sbin"]);

/** Stands for a process substitution: `<(…)` in a pattern, `/dev/fd/N` in what ran. */
const PIPE = "\0pipe\0";

/** A pattern with each process substitution `<(…)` / `>(…)` (balanced parentheses) replaced by {@link PIPE}. */
function pipesMarked(pattern: string): string {
  let out = "";
  for (let i = 0; i < pattern.length; i++) {
    if ((pattern[i] === "<" || pattern[i] === ">") && pattern[i + 1] === "(" && (i === 0 || pattern[i - 1] === " ")) {
      let depth = 0;
      let j = i + 1;
      for (; j < pattern.length; j++) {
        if (pattern[j] === "(") depth++;
        else if (pattern[j] === ")" && --depth === 0) break;
      }
      out += PIPE;
      i = j;
    } else out += pattern[i];
  }
  return out;
}

/** Whether the analysis names the program run with `argv` (its pattern or one of its spellings). */
function named(analysis: CommandAnalysis, argv: string[]): boolean {
  const [file, ...rest] = argv;
  const args = rest.map((arg) => (/^\/dev\/fd\/\d+$/.test(arg) ? PIPE : arg));
  const spellings = new Set([...analysis.patterns, ...analysis.variants.flat()].map(pipesMarked));
  const forms = [[file!, ...args].join(" ")];
  if (SYSTEM_BIN.has(dirname(file!))) forms.push([basename(file!), ...args].join(" "));
  return forms.some((form) => spellings.has(pipesMarked(form)));
}

/** A command whose run did what its (non-opaque) analysis did not report. */
export interface Failure {
  command: string;
  missed: string[];
}

/** What a run of the oracle found. */
export interface OracleResult {
  failures: Failure[];
  /** Commands the analysis called opaque (not checked). */
  opaque: number;
  /** Programs bash ran, over all commands. */
  programs: number;
  /** Paths bash wrote, over all commands. */
  writes: number;
}

/** Runs `commands` under bash and checks each non-opaque analysis against what ran and was written. */
export async function check(commands: readonly string[]): Promise<OracleResult> {
  const root = newRoot();
  try {
    return await checkIn(root, commands);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

async function checkIn(root: string, commands: readonly string[]): Promise<OracleResult> {
  const { execs, writes } = await runUnderBash(root, commands);
  const failures: Failure[] = [];
  let opaque = 0;
  let programs = 0;
  let written = 0;
  for (const [i, command] of commands.entries()) {
    const caseDir = join(root, "s", String(i));
    const inside = `${INSIDE.cases}/${i}`;
    const analysis = await analyzeCommand(command, { cwd: `${inside}/ws`, home: `${inside}/home` });
    programs += execs[i]!.length;
    written += writes[i]!.length;
    if (analysis.opaque) {
      opaque++;
      continue;
    }
    const missed: string[] = [];
    for (const argv of execs[i]!) if (!named(analysis, argv)) missed.push(`ran ${JSON.stringify(argv)}`);
    // Written paths: where the analysis's paths land on the host, resolved as the kernel would.
    const landed = new Set<string>();
    for (const use of analysis.paths) {
      if (!use.write) continue;
      const spelled = use.spelled ?? use.path;
      if (!spelled.startsWith(`${inside}/`)) continue;
      landed.add(await realpathLoose(caseDir + spelled.slice(inside.length)));
    }
    for (const entry of writes[i]!) {
      const host = join(caseDir, entry);
      const real = join(realpathSync(dirname(host)), basename(host));
      if (!landed.has(real)) missed.push(`wrote ${entry}`);
    }
    if (missed.length > 0) failures.push({ command, missed });
  }
  return { failures, opaque, programs, writes: written };
}

