/**
 * How many leading words name "the command" for an `always` suggestion: `git commit -m x` →
 * `git commit *`, `npm run build` → `npm run build *`, `consul kv get k` → `consul kv get *`. Keys are
 * the command's first words; a longer key wins. Commands not listed take one word. A null-prototype
 * object: names like `constructor` or `__proto__` are not keys.
 */
export const ARITY: Readonly<Record<string, number>> = Object.freeze(
  Object.assign(Object.create(null) as Record<string, number>, {
    // Version control and forges.
    git: 2, "git config": 3, "git remote": 3, "git stash": 3, "git submodule": 3, "git worktree": 3, "git lfs": 3,
    "git notes": 3, "git bisect": 3, "git sparse-checkout": 3, "git reflog": 3, "git branch": 2, hg: 2, svn: 2,
    gh: 3, "gh api": 2, "gh auth": 3, glab: 3,
    // JavaScript.
    npm: 2, "npm exec": 3, "npm run": 3, "npm run-script": 3, "npm cache": 3, "npm config": 3, "npm pkg": 3,
    npx: 2, pnpm: 2, "pnpm dlx": 3, "pnpm exec": 3, "pnpm run": 3, yarn: 2, "yarn dlx": 3, "yarn run": 3,
    "yarn workspace": 4, bun: 2, "bun run": 3, "bun x": 3, bunx: 2, deno: 2, "deno task": 3, turbo: 2, "turbo run": 3,
    nx: 2, "nx run": 3, corepack: 2, volta: 2, nvm: 2,
    // Other languages.
    cargo: 2, "cargo run": 3, rustup: 2, "rustup toolchain": 3, "rustup component": 3, "rustup target": 3, go: 2, "go mod": 3,
    "go tool": 3, "go env": 2, pip: 2, pip3: 2, "pip cache": 3, "pip config": 3, pipenv: 2, "pipenv run": 3,
    uv: 2, "uv run": 3, "uv pip": 3, "uv tool": 3, "uv python": 3, uvx: 2, poetry: 2, "poetry run": 3, "poetry env": 3,
    "poetry self": 3, conda: 2, "conda env": 3, mamba: 2, pdm: 2, "pdm run": 3, hatch: 2, tox: 2, gem: 2, bundle: 2,
    "bundle exec": 3, rake: 2, rails: 2, composer: 2, mvn: 2, gradle: 2, "./gradlew": 2, dotnet: 2, "dotnet tool": 3,
    swift: 2, "swift package": 3, mix: 2, stack: 2, cabal: 2, opam: 2, make: 2, just: 2, task: 2, cmake: 2, bazel: 2,
    // Containers and clusters.
    docker: 2, "docker compose": 3, "docker container": 3, "docker image": 3, "docker network": 3, "docker volume": 3,
    "docker buildx": 3, "docker system": 3, "docker context": 3, "docker-compose": 2, podman: 2, "podman container": 3,
    "podman image": 3, kubectl: 2, "kubectl config": 3, "kubectl rollout": 3, "kubectl auth": 3, "kubectl krew": 3,
    helm: 2, "helm repo": 3, "helm plugin": 3, k9s: 1, kind: 2, minikube: 2, skaffold: 2,
    // Infrastructure and clouds.
    terraform: 2, "terraform state": 3, "terraform workspace": 3, tofu: 2, "tofu state": 3, pulumi: 2, "pulumi stack": 3,
    "pulumi config": 3, ansible: 1, "ansible-playbook": 1, aws: 3, "aws s3": 3, "aws configure": 3, gcloud: 3,
    "gcloud compute": 4, "gcloud container": 4, "gcloud config": 3, "gcloud auth": 3, gsutil: 2, az: 3, "az account": 3,
    "az group": 3, doctl: 3, flyctl: 2, fly: 2, heroku: 2, vercel: 2, netlify: 2, wrangler: 2,
    consul: 2, "consul kv": 3, "consul acl": 3, "consul services": 3, "consul catalog": 3, "consul connect": 3,
    vault: 2, "vault kv": 3, "vault secrets": 3, "vault auth": 3, "vault policy": 3, "vault token": 3, nomad: 2,
    "nomad job": 3, etcdctl: 2,
    // Systems.
    systemctl: 2, journalctl: 1, service: 3, launchctl: 2, brew: 2, "brew services": 3, apt: 2, "apt-get": 2,
    "apt-cache": 2, dnf: 2, yum: 2, apk: 2, pacman: 1, snap: 2, flatpak: 2, port: 2, nix: 2, "nix-env": 1,
    ip: 2, "ip addr": 3, "ip link": 3, "ip route": 3, ufw: 2, firewall: 2, iptables: 1, crontab: 1,
    // Databases.
    psql: 1, mysql: 1, redis: 2, "redis-cli": 1, mongosh: 1, sqlite3: 2,
  }),
);

/** Commands whose `always` suggestion is the exact command: a prefix rule would approve anything they run. */
const EXACT_ONLY = new Set([
  "sudo", "doas", "su", "runuser", "pkexec", "chroot", "ssh", "env", "eval", "exec", "bash", "sh", "zsh", "dash",
  "ksh", "ash", "fish", "mksh", "xargs", "parallel", "source", ".", "watch", "busybox", "toybox", "python", "python3",
  "node", "ruby", "perl", "php", "npx", "pnpx", "bunx", "uvx", "curl", "wget",
]);

const MAX_KEY_WORDS = 4;

function arityOf(key: string): number | undefined {
  return Object.hasOwn(ARITY, key) ? ARITY[key] : undefined;
}

/**
 * The `always` suggestion for a simple command given its words (`raw` the canonical word, `literal`
 * whether it is plain text): the arity prefix + ` *`. When the words before the first flag or
 * non-literal word are fewer than the arity (`git -C x log`, `python -c …`), or the command runs
 * arbitrary code given to it (shells, interpreters, wrappers), the suggestion is the exact command,
 * so "always" never approves more than the command family asked about.
 */
export function alwaysPattern(words: readonly { raw: string; literal: boolean }[]): string | undefined {
  if (words.length === 0 || !words[0]!.literal) return undefined;
  const plain: string[] = [];
  for (const word of words) {
    if (!word.literal || word.raw.startsWith("-") || plain.length === MAX_KEY_WORDS) break;
    plain.push(word.raw);
  }
  const exact = words.map((w) => w.raw).join(" ");
  if (plain.length === 0 || EXACT_ONLY.has(plain[0]!)) return exact;
  let arity = 1;
  for (let n = plain.length; n > 0; n--) {
    const known = arityOf(plain.slice(0, n).join(" "));
    if (known !== undefined) {
      arity = known;
      break;
    }
  }
  if (plain.length < arity) return exact;
  return `${plain.slice(0, arity).join(" ")} *`;
}

/** How many leading words name the command (`git push x` → 2, `npm run build` → 3, `ls -la` → 1). */
export function subcommandWords(words: readonly string[]): number {
  for (let n = Math.min(words.length, MAX_KEY_WORDS); n > 0; n--) {
    const known = arityOf(words.slice(0, n).join(" "));
    if (known !== undefined) return known;
  }
  return 1;
}
