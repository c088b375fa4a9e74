/**
 * How many leading words name "the command" for an `always` suggestion: `git commit -m x` →
 * `git commit *`, `npm run build` → `npm run build *`, `docker compose up -d` → `docker compose up *`.
 * Keys are the command's first words; a longer key wins. Commands not listed take one word.
 */
export const ARITY: Readonly<Record<string, number>> = Object.freeze({
  // Tools with subcommands.
  apt: 2, "apt-get": 2, brew: 2, bun: 2, "bun run": 3, "bun x": 3, bundle: 2, cargo: 2, "cargo run": 3,
  composer: 2, conda: 2, deno: 2, "deno task": 3, docker: 2, "docker compose": 3, "docker container": 3,
  "docker image": 3, "docker network": 3, "docker volume": 3, dotnet: 2, gem: 2, gh: 3, git: 2,
  "git config": 3, "git remote": 3, "git stash": 3, "git submodule": 3, "git worktree": 3, go: 2, "go mod": 3,
  gradle: 2, helm: 2, kubectl: 2, "kubectl config": 3, "kubectl rollout": 3, make: 2, mvn: 2, npm: 2,
  "npm exec": 3, "npm run": 3, "npm run-script": 3, npx: 2, pip: 2, pip3: 2, pipenv: 2, pnpm: 2, "pnpm dlx": 3,
  "pnpm exec": 3, "pnpm run": 3, poetry: 2, "poetry run": 3, podman: 2, python: 2, python3: 2, rustup: 2,
  swift: 2, systemctl: 2, terraform: 2, turbo: 2, "turbo run": 3, uv: 2, "uv run": 3, yarn: 2, "yarn dlx": 3,
  "yarn run": 3, aws: 3, gcloud: 3, az: 3,
});

const MAX_KEY_WORDS = 3;

/**
 * The `always` suggestion for a simple command given its words (`raw` as written, `literal` whether
 * the word is plain text): the arity prefix, cut before the first flag or non-literal word, + ` *`.
 */
export function alwaysPattern(words: readonly { raw: string; literal: boolean }[]): string | undefined {
  const plain: string[] = [];
  for (const word of words) {
    if (!word.literal || word.raw.startsWith("-") || plain.length === MAX_KEY_WORDS) break;
    plain.push(word.raw);
  }
  if (plain.length === 0) return undefined;
  let arity = 1;
  for (let n = plain.length; n > 0; n--) {
    const known = ARITY[plain.slice(0, n).join(" ")];
    if (known !== undefined) {
      arity = known;
      break;
    }
  }
  return `${plain.slice(0, arity).join(" ")} *`;
}
