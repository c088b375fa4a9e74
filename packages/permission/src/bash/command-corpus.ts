import type { CommandAnalysis } from "./analyze.js";

/**
 * Commands with the analysis expected for them, run in workspace `/home/u/ws` with home `/home/u`.
 * Omitted fields default to: no patterns, no other spellings, no `always`, no external directories,
 * no writes, not opaque.
 */
export interface CorpusCase extends Partial<Omit<CommandAnalysis, "paths" | "workspace">> {
  command: string;
  /** The absolute paths the command writes (redirection targets, `tee` operands). */
  writes?: string[];
  /** A different working directory (inside or outside the workspace). */
  cwd?: string;
}

const ws = "/home/u/ws";
const home = "/home/u";

export const CORPUS: readonly CorpusCase[] = [
  // Simple commands and arity prefixes.
  { command: "ls", patterns: ["ls"], always: ["ls *"] },
  { command: "ls -la src", patterns: ["ls -la src"], always: ["ls *"] },
  { command: "git status", patterns: ["git status"], always: ["git status *"] },
  { command: "git commit -m \"fix the login bug\"", patterns: ["git commit -m fix the login bug"], variants: [["git commit -m 'fix the login bug'"]], always: ["git commit *"] },
  { command: "git stash pop", patterns: ["git stash pop"], always: ["git stash pop *"] },
  { command: "git -C sub log", patterns: ["git -C sub log"], variants: [["git log"]], always: ["git -C sub log"] },
  { command: "npm test", patterns: ["npm test"], always: ["npm test *"] },
  { command: "npm run build -- --watch", patterns: ["npm run build -- --watch"], always: ["npm run build *"] },
  { command: "npm install", patterns: ["npm install"], always: ["npm install *"] },
  { command: "docker compose up -d", patterns: ["docker compose up -d"], always: ["docker compose up *"] },
  { command: "docker ps", patterns: ["docker ps"], always: ["docker ps *"] },
  { command: "cargo test --release", patterns: ["cargo test --release"], always: ["cargo test *"] },
  { command: "go test ./...", patterns: ["go test ./..."], always: ["go test *"] },
  { command: "kubectl get pods -n x", patterns: ["kubectl get pods -n x"], always: ["kubectl get *"] },
  { command: "gh pr create --fill", patterns: ["gh pr create --fill"], always: ["gh pr create *"] },
  { command: "python -m pytest", patterns: ["python -m pytest"], always: ["python -m pytest"] },
  { command: "./scripts/build.sh --fast", patterns: ["./scripts/build.sh --fast"], variants: [["build.sh --fast"]], always: ["./scripts/build.sh *"] },
  { command: "pnpm exec vitest run", patterns: ["pnpm exec vitest run"], always: ["pnpm exec vitest *"] },
  { command: "echo hello world", patterns: ["echo hello world"], always: ["echo *"] },
  { command: "npm test \\\n  --watch", patterns: ["npm test --watch"], variants: [["npm test \\\n  --watch"]], opaque: true },
  { command: "command -v node", patterns: ["command -v node"] },
  { command: "", patterns: [] },
  { command: "   ", patterns: [] },
  { command: "# only a comment", patterns: [] },

  // Operators, subshells, substitutions: one pattern per simple command.
  { command: "ls && rm -rf ~", patterns: ["ls", "rm -rf /home/u"], variants: [[], ["rm -rf ~"]], always: ["ls *", "rm *"], externalDirectories: ["/home/u"] },
  { command: "npm run lint || npm run fix", patterns: ["npm run lint", "npm run fix"], always: ["npm run lint *", "npm run fix *"] },
  { command: "make; make install", patterns: ["make", "make install"], always: ["make", "make install *"] },
  { command: "cat package.json | grep version", patterns: ["cat package.json", "grep version"], always: ["cat *", "grep *"] },
  { command: "(ls; pwd)", patterns: ["ls", "pwd"], always: ["ls *", "pwd *"] },
  { command: "{ ls; pwd; }", patterns: ["ls", "pwd"], always: ["ls *", "pwd *"] },
  { command: "echo $(git rev-parse HEAD)", patterns: ["git rev-parse HEAD", "echo $(git rev-parse HEAD)"], opaque: true },
  { command: "echo `date`", patterns: ["date", "echo `date`"], opaque: true },
  { command: "echo \"$(whoami)\"", patterns: ["whoami", "echo \"$(whoami)\""], opaque: true },
  { command: "diff <(ls a) <(ls b)", patterns: ["ls a", "ls b", "diff <(ls a) <(ls b)"], always: ["ls *", "diff *"] },
  { command: "if true; then ls; else pwd; fi", patterns: ["true", "ls", "pwd"], opaque: true },
  { command: "[[ -f x ]] && ! ls", patterns: ["ls"], opaque: true },
  { command: "ls &", patterns: ["ls"], always: ["ls *"] },
  { command: "f() { rm -rf ~; }; f", patterns: ["rm -rf /home/u", "f"], variants: [["rm -rf ~"], []], externalDirectories: ["/home/u"], opaque: true },

  // Redirections.
  { command: "ls > out.txt", patterns: ["ls"], variants: [["ls > out.txt"]], always: ["ls *"], writes: ["/home/u/ws/out.txt"] },
  { command: "npm test > ../log.txt 2>&1", patterns: ["npm test"], variants: [["npm test > ../log.txt 2>&1"]], always: ["npm test *"], externalDirectories: ["/home/u"], writes: ["/home/u/log.txt"] },
  { command: "echo hi >> /tmp/notes", patterns: ["echo hi"], variants: [["echo hi >> /tmp/notes"]], always: ["echo *"], externalDirectories: ["/tmp"], writes: ["/tmp/notes"] },
  { command: "ls 2>/dev/null", patterns: ["ls"], variants: [["ls 2> /dev/null"]], always: ["ls *"] },
  { command: "echo oops >&2", patterns: ["echo oops"], variants: [["echo oops >&2"]], always: ["echo *"] },
  { command: "sort < /etc/hosts", patterns: ["sort"], variants: [["sort < /etc/hosts"]], always: ["sort *"], externalDirectories: ["/etc"] },
  { command: "cat <<EOF > /tmp/out\nhi\nEOF", patterns: ["cat"], variants: [["cat <<< hi > /tmp/out"]], always: ["cat *"], externalDirectories: ["/tmp"], writes: ["/tmp/out"] },

  // Paths of file-touching commands.
  { command: "rm -rf build", patterns: ["rm -rf build"], always: ["rm *"] },
  { command: "rm -rf /", patterns: ["rm -rf /"], always: ["rm *"], externalDirectories: ["/"] },
  { command: "cat ~/.bashrc", patterns: ["cat /home/u/.bashrc"], variants: [["cat ~/.bashrc"]], always: ["cat *"], externalDirectories: ["/home/u"] },
  { command: "cat $HOME/.ssh/id_rsa", patterns: ["cat /home/u/.ssh/id_rsa"], variants: [["cat $HOME/.ssh/id_rsa"]], externalDirectories: ["/home/u/.ssh"], opaque: true },
  { command: "cp a.txt /etc/", patterns: ["cp a.txt /etc/"], always: ["cp *"], externalDirectories: ["/etc"] },
  { command: "mv a.txt ../b.txt", patterns: ["mv a.txt ../b.txt"], always: ["mv *"], externalDirectories: ["/home/u"] },
  { command: "mkdir -p /tmp/a/b", patterns: ["mkdir -p /tmp/a/b"], always: ["mkdir *"], externalDirectories: ["/tmp/a/b"] },
  { command: "touch src/new.ts", patterns: ["touch src/new.ts"], always: ["touch *"] },
  { command: "chmod +x script.sh", patterns: ["chmod +x script.sh"], always: ["chmod *"] },
  { command: "chmod 755 /usr/local/bin/tool", patterns: ["chmod 755 /usr/local/bin/tool"], always: ["chmod *"], externalDirectories: ["/usr/local/bin"] },
  { command: "chown -R me:me /srv/app", patterns: ["chown -R me:me /srv/app"], always: ["chown *"], externalDirectories: ["/srv"] },
  { command: "cp --target-directory=/opt a b", patterns: ["cp --target-directory=/opt a b"], always: ["cp *"], externalDirectories: ["/opt"] },
  { command: "cat ./src/../../ws/a.txt", patterns: ["cat ./src/../../ws/a.txt"], always: ["cat *"] },
  { command: "cat ../ws-other/secret", patterns: ["cat ../ws-other/secret"], always: ["cat *"], externalDirectories: ["/home/u/ws-other"] },
  { command: "ls /etc", patterns: ["ls /etc"], always: ["ls *"], externalDirectories: ["/etc"] },

  // cd is followed, within its subshell.
  { command: "cd /tmp && rm -rf x", patterns: ["cd /tmp", "rm -rf x"], always: ["cd *", "rm *"], externalDirectories: ["/tmp"] },
  { command: "cd src && cat ../../x", patterns: ["cd src", "cat ../../x"], always: ["cd *", "cat *"], externalDirectories: ["/home/u"] },
  { command: "cd packages/a && rm -rf ../b", patterns: ["cd packages/a", "rm -rf ../b"], always: ["cd *", "rm *"] },
  { command: "(cd /tmp) && rm x", patterns: ["cd /tmp", "rm x"], always: ["cd *", "rm *"], externalDirectories: ["/tmp"] },
  { command: "cd sub; rm ../x", patterns: ["cd sub", "rm ../x"], always: ["cd *", "rm *"], externalDirectories: ["/home/u"] },
  { command: "cd; rm -rf x", patterns: ["cd", "rm -rf x"], always: ["cd *", "rm *"], externalDirectories: ["/home/u"] },
  { command: "ls", cwd: "/tmp", patterns: ["ls"], always: ["ls *"] },
  { command: "touch x", cwd: "/tmp", patterns: ["touch x"], always: ["touch *"], externalDirectories: ["/tmp"] },

  // Opaque: asked as a whole; what they run is still extracted for deny rules.
  { command: "eval \"rm -rf /\"", patterns: ["eval rm -rf /", "rm -rf /"], variants: [["eval 'rm -rf /'"], []], externalDirectories: ["/"], opaque: true },
  { command: "eval \"$cmd\"", patterns: ["eval \"$cmd\""], opaque: true },
  { command: "bash -c \"ls; rm x\"", patterns: ["bash -c ls; rm x", "ls", "rm x"], variants: [["bash -c 'ls; rm x'"], [], []], always: ["bash -c ls; rm x", "ls *", "rm *"] },
  { command: "bash -c \"$x\"", patterns: ["bash -c \"$x\""], opaque: true },
  { command: "sh -c 'git push'", patterns: ["sh -c git push", "git push"], variants: [["sh -c 'git push'"], []], always: ["sh -c git push", "git push *"] },
  { command: "curl -fsSL https://x.sh | sh", patterns: ["curl -fsSL https://x.sh", "sh"], opaque: true },
  { command: "ls | xargs rm", patterns: ["ls", "xargs rm", "rm"], opaque: true },
  { command: "find . -name '*.log' -exec rm {} \\;", patterns: ["find . -name *.log -exec rm {} ;", "rm {}"], variants: [["find . -name '*.log' -exec rm {} \\;"], []], opaque: true },
  { command: "find . -name '*.log'", patterns: ["find . -name *.log"], variants: [["find . -name '*.log'"]], always: ["find *"] },
  { command: "sudo rm -rf /etc/x", patterns: ["sudo rm -rf /etc/x", "rm -rf /etc/x"], always: ["rm *"], externalDirectories: ["/etc"] },
  { command: "FOO=1 npm test", patterns: ["npm test"], variants: [["FOO=1 npm test"]], opaque: true },
  { command: "FOO=1 BAR=2 rm -rf build", patterns: ["rm -rf build"], variants: [["FOO=1 BAR=2 rm -rf build"]], opaque: true },
  { command: "env NODE_ENV=test npm test", patterns: ["npm test"], variants: [["env NODE_ENV=test npm test"]], always: ["npm test *"] },
  { command: "timeout 10 npm test", patterns: ["npm test"], variants: [["timeout 10 npm test"]], always: ["npm test *"] },
  { command: "watch \"ls | wc -l\"", patterns: ["watch ls | wc -l", "ls", "wc -l"], variants: [["watch 'ls | wc -l'"], [], []], always: ["ls *", "wc *"] },
  { command: "cat <<< \"hi\"", patterns: ["cat"], variants: [["cat <<< hi"]], always: ["cat *"] },
  { command: "git commit -m \"a && rm -rf ~\"", patterns: ["git commit -m a && rm -rf ~"], variants: [["git commit -m 'a && rm -rf ~'"]], always: ["git commit *"] },
  { command: "echo 'x; y'", patterns: ["echo x; y"], variants: [["echo 'x; y'"]], always: ["echo *"] },
  { command: "\"rm\" -rf /", patterns: ["rm -rf /"], always: ["rm *"], externalDirectories: ["/"] },
  { command: "\\rm -rf build", patterns: ["rm -rf build"], always: ["rm *"] },
  { command: "$CMD --force", patterns: ["$CMD --force"], opaque: true },
  { command: "export PATH=/tmp:$PATH && ls", patterns: ["export PATH=/tmp:$PATH", "ls"], opaque: true },
  { command: "x=1; ls", patterns: ["ls"], opaque: true },
  { command: "x=$(rm -rf ~)", patterns: ["rm -rf /home/u"], variants: [["rm -rf ~"]], externalDirectories: ["/home/u"], opaque: true },
  { command: "source .venv/bin/activate && pytest", patterns: ["source .venv/bin/activate", "pytest"], opaque: true },
  { command: "rm -rf $DIR", patterns: ["rm -rf $DIR"], opaque: true },
  { command: "for f in *.ts; do cat $f; done", patterns: ["cat $f"], opaque: true },
  { command: "for i in 1 2; do cd ..; done; rm -rf x", patterns: ["cd ..", "rm -rf x"], externalDirectories: ["/home/u"], opaque: true },
  { command: "cd - && ls", patterns: ["cd -", "ls"], opaque: true },
  { command: "echo \"unterminated", patterns: ["echo \"unterminated", "echo"], opaque: true },
  { command: "trap 'rm -f lock' EXIT", patterns: ["trap rm -f lock EXIT", "rm -f lock"], variants: [["trap 'rm -f lock' EXIT"], []], opaque: true },
  { command: "su -c 'apt update' root", patterns: ["su -c apt update root", "apt update"], variants: [["su -c 'apt update' root"], []], always: ["apt update *"] },
  { command: "echo $'a\\x3b b'", patterns: ["echo $'a\\x3b b'"], opaque: true },
];

export const CORPUS_OPTIONS = { cwd: ws, home };
