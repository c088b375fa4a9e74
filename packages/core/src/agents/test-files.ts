// Test helpers for skills and commands: a temporary repository with a workspace inside it.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/** Writes a file, making its folders. */
export function put(path: string, text: string | Uint8Array): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

/** A temporary tree: `root/repo` is a repository (it has `.git`), `cwd` a folder inside it, `config` a user config directory. */
export interface TempRepo {
  root: string;
  repo: string;
  cwd: string;
  config: string;
  remove(): void;
}

/** Makes a {@link TempRepo}; `cwdInRepo` is the workspace's path under the repository (`""` for the repository itself). */
export function tempRepo(prefix: string, cwdInRepo = ""): TempRepo {
  const root = mkdtempSync(join(tmpdir(), prefix));
  const repo = join(root, "repo");
  const cwd = join(repo, cwdInRepo);
  mkdirSync(join(repo, ".git"), { recursive: true });
  mkdirSync(cwd, { recursive: true });
  return { root, repo, cwd, config: join(root, "config"), remove: () => rmSync(root, { recursive: true, force: true }) };
}
