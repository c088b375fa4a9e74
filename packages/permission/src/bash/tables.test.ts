// Every entry of the tables of what runs programs — wrappers, shells, builtins that evaluate text,
// options whose value is a program — is tested here: a table entry without a case fails the test.
import { describe, expect, it } from "vitest";
import { fromConfig } from "../config.js";
import { analyzeCommand } from "./analyze.js";
import { BUILTINS } from "./builtins.js";
import { PROGRAM_OPTIONS } from "./program-options.js";
import { SHELLS } from "./shells.js";
import { decide } from "./test-decide.js";
import { WRAPPERS } from "./wrappers.js";

const options = { cwd: "/home/u/ws", home: "/home/u" };
const denyRm = fromConfig({ bash: { "*": "allow", "rm *": "deny" } });
const analyse = (command: string) => analyzeCommand(command, options);

/** Per wrapper: a call that runs `rm x` through it (its leading operands and command option as its grammar has them). */
const WRAPPER_CASES: Record<string, string> = {
  sudo: "sudo -u root rm x",
  doas: "doas -u root rm x",
  su: "su root -c 'rm x'",
  runuser: "runuser -u root -- rm x",
  pkexec: "pkexec --user root rm x",
  chroot: "chroot /srv rm x",
  ssh: "ssh -p 22 host rm x",
  env: "env -u HOME CI=1 rm x",
  command: "command -p rm x",
  builtin: "builtin rm x",
  exec: "exec -a name rm x",
  nohup: "nohup rm x",
  nice: "nice -n 5 rm x",
  ionice: "ionice -c 3 rm x",
  timeout: "timeout -s KILL 5 rm x",
  time: "time -p rm x",
  stdbuf: "stdbuf -o0 rm x",
  setsid: "setsid -f rm x",
  taskset: "taskset 0x1 rm x",
  chrt: "chrt -f 10 rm x",
  flock: "flock -n lockfile rm x",
  unbuffer: "unbuffer -p rm x",
  caffeinate: "caffeinate -i rm x",
  strace: "strace -f rm x",
  ltrace: "ltrace -f rm x",
  busybox: "busybox rm x",
  toybox: "toybox rm x",
  watch: "watch -n 1 rm x",
  xargs: "xargs -0 rm x",
  parallel: "parallel -j 2 rm x",
  unshare: "unshare -r --fork rm x",
  nsenter: "nsenter -t 1 -m rm x",
  setpriv: "setpriv --reuid=1000 rm x",
  prlimit: "prlimit --nofile=10 rm x",
  fakeroot: "fakeroot -- rm x",
  script: "script -qc 'rm x' /dev/null",
  npx: "npx -c 'rm x'",
};

/** Wrappers whose command form is opaque by design (arguments at run time, a command joined into shell text elsewhere). */
const OPAQUE_WRAPPERS = new Set(["xargs", "parallel"]);

describe("the wrapper table", () => {
  it("has a case for every entry", () => {
    expect(Object.keys(WRAPPER_CASES).sort()).toEqual([...WRAPPERS.keys()].sort());
  });

  it.each(Object.entries(WRAPPER_CASES))("%s: what it runs is seen, and a deny rule for it holds", async (name, command) => {
    const analysis = await analyse(command);
    expect(analysis.patterns).toContain("rm x");
    expect(analysis.opaque).toBe(OPAQUE_WRAPPERS.has(name));
    expect(await decide(command, denyRm, options)).toBe("deny");
  });

  it.each([...WRAPPERS.keys()])("%s: an option its grammar does not list makes the call opaque", async (name) => {
    const analysis = await analyse(`${name} --lathe-unknown-option rm x`);
    expect(analysis.opaque).toBe(true);
  });

  it("finds the command after leading operands and options that follow them", async () => {
    expect((await analyse("flock lockfile -c 'rm x'")).patterns).toEqual(["flock lockfile -c rm x", "sh -c rm x", "rm x"]);
    expect((await analyse("su root -c 'rm x'")).patterns).toContain("rm x");
    expect((await analyse("su root")).opaque).toBe(true); // a shell reading stdin
    expect((await analyse("env -C sub rm x")).paths.map((p) => p.path)).toContain("/home/u/ws/sub/x");
    expect((await analyse("env -S 'rm x'")).patterns).toContain("rm x");
    expect((await analyse("env -S 'rm \"$X\"'")).opaque).toBe(true); // env's own quoting and ${VAR}
    expect((await analyse("flock lockfile true")).paths).toEqual([{ path: "/home/u/ws/lockfile", directory: false, write: true }]);
  });
});

/** Per shell: its `-c` string is analysed (bash syntax) or opaque (another language). */
describe("the shell table", () => {
  it.each([...SHELLS.keys()])("%s -c 'rm x'", async (name) => {
    const command = `${name} -c 'rm x'`;
    const analysis = await analyse(command);
    const bashSyntax = ["bash", "rbash", "sh", "dash", "ash", "busybox sh"].includes(name);
    if (bashSyntax) expect(analysis.patterns).toContain("rm x");
    expect(analysis.opaque).toBe(!bashSyntax);
    expect(await decide(command, denyRm, options)).not.toBe("allow");
  });

  it("reads the option grammar as bash does", async () => {
    expect((await analyse("bash -c -o posix 'rm x'")).patterns).toContain("rm x");
    expect((await analyse("bash -o posix -c 'rm x'")).patterns).toContain("rm x");
    expect((await analyse("bash -ec 'rm x' name arg")).patterns).toContain("rm x");
    expect((await analyse("bash --norc -c 'rm x'")).patterns).toContain("rm x");
    expect((await analyse("bash --rcfile f -c 'rm x'")).opaque).toBe(true);
    expect((await analyse("bash /dev/stdin <<< 'rm x'")).patterns).toContain("rm x");
    expect((await analyse("bash - <<< 'rm x'")).patterns).toContain("rm x");
    expect((await analyse("bash -s < script")).opaque).toBe(true);
    expect((await analyse("bash /dev/stdin")).opaque).toBe(true);
    expect((await analyse("bash script.sh")).opaque).toBe(false); // a file: judged by its command line
  });
});

/** Per builtin: a call that is opaque, and where it has one, a harmless form that is not. */
const BUILTIN_CASES: Record<string, [opaque: string, understood?: string]> = {
  let: ["let 'a[$(rm x)]=1'".replace("$(rm x)", "0")],
  declare: ["declare -x X=rm", "declare CI=1"],
  typeset: ["typeset X=rm", "typeset CI=1"],
  export: ["export 'GIT_SSH_COMMAND=rm'", "export CI=1 NODE_ENV=test"],
  readonly: ["readonly PATH=/tmp", "readonly LANG=C"],
  local: ["local X=1", "local CI=1"],
  read: ["read X"],
  mapfile: ["mapfile -C f a"],
  readarray: ["readarray a"],
  getopts: ["getopts ab X"],
  printf: ["printf -v X %s rm", "printf '%s\\n' a"],
  test: ["test -v X", "test -f x"],
  "[": ["[ -v X ]", "[ -f x ]"],
  unset: ["unset 'a[0]'", "unset -v CI"],
  set: ["set -- rm x", "set -euo pipefail"],
  shopt: ["shopt -s extglob"],
  enable: ["enable -n echo"],
  alias: ["alias ls=rm"],
  unalias: ["unalias ls"],
  hash: ["hash -p /tmp/rm ls"],
  source: ["source x.sh"],
  ".": [". x.sh"],
  bind: ["bind -x '\"a\": rm x'"],
  complete: ["complete -C rm ls"],
  compgen: ["compgen -C rm x"],
  compopt: ["compopt -o default"],
  fc: ["fc -s"],
  history: ["history -s x"],
  trap: ["trap 'rm x' EXIT"],
  eval: ["eval 'rm x'"],
  wait: ["wait -p X", "wait"],
  popd: ["popd"],
  caller: ["caller"],
};

describe("the builtin table", () => {
  it("has a case for every entry", () => {
    expect(Object.keys(BUILTIN_CASES).sort()).toEqual([...BUILTINS.keys()].sort());
  });

  it.each(Object.entries(BUILTIN_CASES))("%s", async (_name, [opaque, understood]) => {
    expect((await analyse(opaque)).opaque).toBe(true);
    if (understood) expect((await analyse(understood)).opaque).toBe(false);
  });
});

/** Per program: a call using each option whose value is a program (opaque), and a plain call (not). */
const PROGRAM_CASES: Record<string, [plain: string, ...opaque: string[]]> = {
  tar: ["tar -xf a.tar", "tar --to-command=id -xf a.tar", "tar --checkpoint-action=exec=id -cf x a", "tar -I zstd -cf x a", "tar xIf zstd x", "tar --use-compress=id -cf x a", "tar -F s -cf x a", "tar --info-script=s -cf x a", "tar --new-volume-script=s -cf x a", "tar --rsh-command=s -cf x a", "tar --rmt-command=s -cf x a"],
  rg: ["rg -n x", "rg --pre id x", "rg --pre=id x"],
  rsync: ["rsync -av a b", "rsync -e ssh a b", "rsync -avze ssh a b", "rsync --rsh=ssh a b", "rsync --rsync-path=id a b"],
  scp: ["scp a h:b", "scp -S id a h:b", "scp -o ProxyCommand=id a h:b", "scp -F cfg a h:b"],
  sftp: ["sftp h", "sftp -S id h", "sftp -D id h", "sftp -o ProxyCommand=id h", "sftp -F cfg h"],
  sort: ["sort a", "sort --compress-program=id a"],
  split: ["split a", "split --filter=id a"],
  find: ["find . -name a", "find . -exec id {} ;", "find . -execdir id {} +", "find . -ok id {} ;", "find . -okdir id {} ;", "find . -delete", "find . -fprint f", "find . -fprint0 f", "find . -fprintf f %p", "find . -fls f"],
  zip: ["zip a.zip a", "zip -T -TT id a.zip a", "zip --unzip-command=id a.zip a"],
  man: ["man ls", "man -P id ls", "man -H id ls", "man --pager=id ls", "man --html=id ls"],
};

describe("the table of options whose value is a program", () => {
  it("has a case for every entry (git is tested below)", () => {
    expect(Object.keys(PROGRAM_CASES).sort()).toEqual([...PROGRAM_OPTIONS.keys()].sort());
  });

  it.each(Object.entries(PROGRAM_CASES))("%s", async (_name, [plain, ...opaque]) => {
    expect((await analyse(plain)).opaque).toBe(false);
    for (const command of opaque) expect((await analyse(command)).opaque, command).toBe(true);
  });

  it("git: global -c and program options per subcommand; config writes", async () => {
    for (const plain of ["git status", "git log -x", "git commit -u", "git config --get user.name", "git config user.name"]) {
      expect((await analyse(plain)).opaque, plain).toBe(false);
    }
    for (const opaque of [
      "git -c core.pager=id log", "git --config-env=a=B log", "git --exec-path=/tmp log", "git clone -u id url", "git clone --upload-pack=id url",
      "git fetch --upload-pack=id", "git pull --upload-pack id", "git ls-remote --upload-pack=id url", "git archive --exec=id --remote=x",
      "git push --receive-pack=id", "git send-pack --exec=id", "git rebase -x id", "git rebase --exec=id", "git difftool -x id",
      "git difftool --tool=x", "git mergetool -t x", "git bisect run id", "git submodule foreach id", "git filter-branch --tree-filter id",
      "git config core.pager id",
    ]) {
      expect((await analyse(opaque)).opaque, opaque).toBe(true);
    }
  });
});
