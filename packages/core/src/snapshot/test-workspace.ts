// Test helpers for the snapshot engine: temporary workspaces and an exact picture of their files.
import { execFileSync } from "node:child_process";
import { lstatSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Creates temporary directories and removes them all at once. */
export class TempDirs {
  private readonly dirs: string[] = [];

  make(prefix = "lathe-snap-"): string {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    this.dirs.push(dir);
    return dir;
  }

  cleanup(): void {
    for (const dir of this.dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  }
}

/** Every file under `root` (but the root's `.git`), as "path → kind:mode:content" for exact comparison. */
export function pictureOf(root: string, skip: (path: string) => boolean = () => false): Map<string, string> {
  const picture = new Map<string, string>();
  const walk = (dir: string, prefix: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const path = prefix ? `${prefix}/${name}` : name;
      if (path === ".git" || skip(path)) continue;
      const full = join(dir, name);
      const info = lstatSync(full);
      if (info.isDirectory()) walk(full, path);
      else if (info.isSymbolicLink()) picture.set(path, `link:${readlinkSync(full)}`);
      else picture.set(path, `file:${(info.mode & 0o111) !== 0 ? "x" : "-"}:${readFileSync(full).toString("base64")}`);
    }
  };
  walk(root, "");
  return picture;
}

/** Runs a shell command in `cwd` (the way an agent's bash tool changes files). */
export function sh(cwd: string, command: string): string {
  return execFileSync("sh", ["-c", command], { cwd, encoding: "utf8" });
}

/** Runs the real git in the user's repository at `cwd`, isolated from this machine's config. */
export function userGit(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, {
    cwd,
    encoding: "utf8",
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null", GIT_AUTHOR_NAME: "u", GIT_AUTHOR_EMAIL: "u@x", GIT_COMMITTER_NAME: "u", GIT_COMMITTER_EMAIL: "u@x" },
  });
}
