// A generated source tree committed to a git repository, for benchmarks that snapshot or run an
// agent in a realistic workspace, and the isolated environment to run git there.
import { execFile } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** git's environment for benchmarks: no system or user config, a fixed identity. */
export const gitEnv: NodeJS.ProcessEnv = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_AUTHOR_NAME: "bench",
  GIT_AUTHOR_EMAIL: "bench@example.invalid",
  GIT_COMMITTER_NAME: "bench",
  GIT_COMMITTER_EMAIL: "bench@example.invalid",
};

/** Runs git in `cwd` with {@link gitEnv}. */
export function git(cwd: string, ...args: string[]) {
  return run("git", args, { cwd, env: gitEnv, maxBuffer: 64 * 1024 * 1024 });
}

/**
 * Fills `workspace` with `files` 30-line TypeScript files (25 per directory, 20 directories per
 * package) and a `.gitignore`, and commits them all to a new repository there.
 */
export async function committedSourceTree(workspace: string, files: number): Promise<void> {
  let made = 0;
  for (let a = 0; made < files; a++) {
    for (let b = 0; b < 20 && made < files; b++) {
      const dir = path.join(workspace, `pkg${a}`, `mod${b}`);
      mkdirSync(dir, { recursive: true });
      for (let c = 0; c < 25 && made < files; c++, made++) {
        const lines = Array.from({ length: 30 }, (_, i) => `export const v${i} = ${made * i}; // file ${made} line ${i}`);
        writeFileSync(path.join(dir, `file${c}.ts`), lines.join("\n"));
      }
    }
  }
  writeFileSync(path.join(workspace, ".gitignore"), "*.log\n");
  await git(workspace, "init", "-q");
  await git(workspace, "add", "-A");
  await git(workspace, "commit", "-q", "-m", "bench tree");
}
