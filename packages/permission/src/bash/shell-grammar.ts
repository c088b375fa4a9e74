// Test helper (not exported from the package): a seeded grammar of bash commands for the
// differential test against bash and the opacity property test. It mixes what the analyser models
// (simple commands, quoting, lists, pipelines, redirections, wrappers, `sh -c` strings, `cd`) with
// what it must refuse (expansions, globs, braces, line continuations, compound commands, builtins
// that evaluate text), so that both sides of the subset's border are exercised.
//
// Commands are generated for a fixture working directory holding `a`, `b`, `dir/c`, `secrets/k`,
// `.git/config` and `link` → `../out` (a folder outside the workspace).

/** A small, fast, seeded PRNG (mulberry32). */
export function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Random = () => number;
const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
const chance = (random: Random, p: number): boolean => random() < p;

/** Programs the commands run (each exists as a logging shim in the differential test). */
export const PROGRAMS = ["rm", "touch", "cat", "git", "curl", "ls", "wc", "grep", "sort", "cp", "mv", "mkdir", "tee", "tar", "rg", "split", "head", "id"];

/** Ways of spelling a program name, modelled ones and refused ones alike. */
const PLAIN_NAME_SPELLINGS: readonly ((name: string) => string)[] = [
  (n) => n,
  (n) => n,
  (n) => n,
  (n) => `/bin/${n}`,
  (n) => `/usr/bin/${n}`,
  (n) => `'${n}'`,
  (n) => `"${n}"`,
  (n) => `${n[0]}\\${n.slice(1)}`,
  (n) => `${n[0]}''${n.slice(1)}`,
  (n) => `${n[0]}""${n.slice(1)}`,
];
const TRICKY_NAME_SPELLINGS: readonly ((name: string) => string)[] = [
  (n) => `$'${n}'`,
  (n) => `${n[0]}\\\n${n.slice(1)}`,
  (n) => `${n[0]}{${n.slice(1)},}`,
  (n) => `/bin/${n.slice(0, -1)}[${n.slice(-1)}]`,
  (n) => `/bin/${n.slice(0, -1)}?`,
  (n) => `\${X:-${n}}`,
  (n) => `$(printf ${n})`,
  (n) => `\`printf ${n}\``,
  (n) => `"$(echo ${n})"`,
  (n) => `${n}\${EMPTY}`,
];

/** Arguments: literal, quoted, paths inside and outside; then expansions and globs. */
const PLAIN_ARGS = [
  "x", "y", "-n", "a", "dir", "'q r'", "dir/../b", "--name=v", "link/x", "b", "-f", "--force", "dir/c", "'a b'",
  "\"a b\"", "../out/f", "link/../secrets/k", "~/h", "~", "-rf", "--", "secrets/k", "'$(id)'", "a\\ b", "\"it's\"",
];
const TRICKY_ARGS = ["$HOME", "*", "a?", "{a,b}", "$(id)", "\"$(id)\"", "`id`", "$((1+1))", "~nobody", "a=~/x"];

/** Redirection targets (the differential test checks where writes land). */
const PLAIN_TARGETS = [
  "f", "g", "dir/f", "link/../f4", "'s p'", "../out/v", "secrets/z", "link/n", "~/w2", "/dev/null",
  "secrets/k", "../out/w", "link/w", "link/../secrets/w", ".git/config", "~/w", "'q w'", "dir/../f2",
];
const TRICKY_TARGETS = ["secre*/k", ".gi?/config", "\"$HOME/w\"", "$(printf f3)", "d{1,2}"];
/** How often a choice is taken from the tricky side (outside the modelled subset). */
const TRICKY = 0.08;
const spelled = (random: Random, plain: readonly string[], tricky: readonly string[]): string =>
  pick(random, chance(random, TRICKY) ? tricky : plain);
const target = (random: Random): string => spelled(random, PLAIN_TARGETS, TRICKY_TARGETS);

const REDIRECTS: readonly ((random: Random, depth: number) => string)[] = [
  (r) => `> ${target(r)}`,
  (r) => `>> ${target(r)}`,
  (r) => `2> ${target(r)}`,
  (r) => `&> ${target(r)}`,
  (r) => `>| ${target(r)}`,
  (r) => `>${target(r)}`,
  () => "2>&1",
  () => ">&2",
  () => "< a",
  () => "<<< hi",
  (r, d) => `> >(${simple(r, d + 1)})`,
];

/** Commands that run other commands, in forms the analyser's tables know and forms they do not. */
const WRAPPED: readonly ((inner: string, random: Random) => string)[] = [
  (c) => `timeout 5 ${c}`,
  (c) => `nice -n 1 ${c}`,
  (c) => `nohup ${c}`,
  (c) => `env ${c}`,
  (c) => `env -C dir ${c}`,
  (c) => `env A=1 ${c}`,
  (c) => `env -i ${c}`,
  (c) => `command ${c}`,
  (c) => `exec ${c}`,
  (c) => `stdbuf -o0 ${c}`,
  (c) => `setsid ${c}`,
  (c) => `flock -n lockf ${c}`,
  (c) => `time ${c}`,
  (c) => `nice --bogus ${c}`,
  (c) => `timeout -Z 5 ${c}`,
];

/** Ways of giving a command to a shell or an evaluator as text. */
const AS_TEXT: readonly ((code: string) => string)[] = [
  (c) => `sh -c ${singleQuoted(c)}`,
  (c) => `bash -c ${singleQuoted(c)}`,
  (c) => `bash -c -o posix ${singleQuoted(c)}`,
  (c) => `bash -ec ${singleQuoted(c)}`,
  (c) => `sh -c ${doubleQuoted(c)}`,
  (c) => `eval ${singleQuoted(c)}`,
  (c) => `flock -n lockf -c ${singleQuoted(c)}`,
  (c) => `sh <<< ${singleQuoted(c)}`,
  (c) => `bash /dev/stdin <<< ${singleQuoted(c)}`,
  (c) => `bash - <<< ${singleQuoted(c)}`,
  (c) => `echo ${singleQuoted(c)} | sh`,
  (c) => `sh <<'EOF'\n${c}\nEOF`,
  (c) => `sh -c "echo hi\n${c.replaceAll('"', "'")}"`,
  (c) => `env -S ${singleQuoted(c)}`,
];

/** Builtins and syntax that run code from text the analyser must not take for data. */
const TRICKS: readonly ((random: Random) => string)[] = [
  (r) => `X=${pick(r, PROGRAMS)}; $X x`,
  (r) => `: \${X:=${pick(r, PROGRAMS)}}; $X x`,
  (r) => `read X <<< ${pick(r, PROGRAMS)}; $X x`,
  (r) => `export 'X=${pick(r, PROGRAMS)}'; $X x`,
  (r) => `declare -x X=${pick(r, PROGRAMS)}; $X x`,
  (r) => `let 'a[$(${pick(r, PROGRAMS)} x)]=1'`,
  (r) => `test -v 'a[$(${pick(r, PROGRAMS)} x)]'`,
  (r) => `[ -v 'a[$(${pick(r, PROGRAMS)} x)]' ]`,
  (r) => `printf -v 'a[$(${pick(r, PROGRAMS)} x)]' x`,
  (r) => `mapfile -C '${pick(r, PROGRAMS)}' -c 1 a <<< x`,
  (r) => `P='$(${pick(r, PROGRAMS)} x)'; echo \${P@P}`,
  (r) => `read PS4 <<< '$(${pick(r, PROGRAMS)} x)'; set -x; true`,
  (r) => `coproc ${pick(r, PROGRAMS)} x`,
  (r) => `echo \`echo \\\`${pick(r, PROGRAMS)} x\\\`\``,
  (r) => `f() { ${pick(r, PROGRAMS)} x; }; f`,
  (r) => `for i in 1; do ${pick(r, PROGRAMS)} x; done`,
  (r) => `if true; then ${pick(r, PROGRAMS)} x; fi`,
  (r) => `case a in a) ${pick(r, PROGRAMS)} x;; esac`,
  (r) => `[[ -n $(${pick(r, PROGRAMS)} x) ]]`,
  (r) => `(( $(${pick(r, PROGRAMS)} x) ))`,
  (r) => `unset 'a[$(${pick(r, PROGRAMS)} x)]'`,
  (r) => `'git status'`,
  (r) => `alias ${pick(r, PROGRAMS)}=id`,
  (r) => `${pick(r, PROGRAMS)} x ;; id`,
  (r) => `cd dir && ${pick(r, PROGRAMS)} x > g`,
  (r) => `cd -- dir; ${pick(r, PROGRAMS)} > g`,
  (r) => `pushd dir > /dev/null; ${pick(r, PROGRAMS)} > g`,
  (r) => `cd link && ${pick(r, PROGRAMS)} > ../g`,
  () => "tar --to-command=id -xf a",
  () => "tar --checkpoint=1 --checkpoint-action=exec=id -cf /dev/null a",
  () => "rg --pre id x a",
  () => "sort --compress-program=id a",
  () => "split --filter=id a",
  () => "echo a | xargs id",
  () => "find . -name a -exec id {} \\;",
  () => "git -c core.pager=id log",
];

function singleQuoted(text: string): string {
  return `'${text.replaceAll("'", "'\\''")}'`;
}

function doubleQuoted(text: string): string {
  return `"${text.replace(/["\\$`]/g, (c) => `\\${c}`)}"`;
}

function simple(random: Random, depth: number): string {
  const name = pick(random, chance(random, TRICKY) ? TRICKY_NAME_SPELLINGS : PLAIN_NAME_SPELLINGS)(pick(random, PROGRAMS));
  const words = [name];
  const count = Math.floor(random() * 3);
  for (let i = 0; i < count; i++) words.push(spelled(random, PLAIN_ARGS, TRICKY_ARGS));
  if (chance(random, 0.35)) words.push(pick(random, REDIRECTS)(random, depth));
  if (chance(random, 0.06)) words.unshift(pick(random, ["CI=1", "PATH=/usr/bin", "A='x y'"]));
  return words.join(" ");
}

function command(random: Random, depth: number): string {
  const roll = random();
  if (depth > 2 || roll < 0.5) return simple(random, depth);
  if (roll < 0.6) return pick(random, WRAPPED)(simple(random, depth), random);
  if (roll < 0.7) return pick(random, AS_TEXT)(list(random, depth + 1));
  if (roll < 0.76) return pick(random, TRICKS)(random);
  if (roll < 0.8) return `(${list(random, depth + 1)})`;
  if (roll < 0.86) return `{ ${list(random, depth + 1)}; }`;
  if (roll < 0.9) return `${pick(random, ["cd dir", "cd link", "cd -- dir", "pushd dir", "cd .."])} ${pick(random, ["&&", ";", "||"])} ${simple(random, depth)}`;
  if (roll < 0.95) return `cat <(${simple(random, depth + 1)})`;
  return `echo $(${simple(random, depth + 1)})`;
}

function pipeline(random: Random, depth: number): string {
  const first = command(random, depth);
  return chance(random, 0.2) ? `${first} | ${command(random, depth)}` : first;
}

function list(random: Random, depth: number): string {
  let out = pipeline(random, depth);
  const more = Math.floor(random() * 1.8);
  for (let i = 0; i < more; i++) out += `${pick(random, ["; ", " && ", " || ", "\n", " & "])}${pipeline(random, depth)}`;
  return out;
}

/** `count` commands from `seed`, the same every run for the same seed. */
export function generateCommands(seed: number, count: number): string[] {
  const random = prng(seed);
  return Array.from({ length: count }, () => list(random, 0));
}
