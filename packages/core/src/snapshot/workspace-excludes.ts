// Finds the workspace's own `.git/info/exclude`, so the shadow repository ignores what the user's
// repository ignores. `.git` may be a directory, or a file pointing elsewhere (worktrees, submodules).
import { readFile, stat } from "node:fs/promises";
import { isAbsolute, join, resolve } from "node:path";

/** The workspace repository's git directory and the directory it shares objects and info/ with (they differ for linked worktrees). */
export interface WorkspaceGitDirs {
  gitDir: string;
  commonDir: string;
}

/** Where the workspace's own repository lives, or undefined when the workspace is not a git repository root. */
export async function workspaceGitDirs(workspace: string): Promise<WorkspaceGitDirs | undefined> {
  const dotGit = join(workspace, ".git");
  const info = await stat(dotGit).catch(() => undefined);
  if (!info) return undefined;
  let gitDir = dotGit;
  if (info.isFile()) {
    const match = /^gitdir:\s*(.+?)\s*$/m.exec(await readFile(dotGit, "utf8").catch(() => ""));
    if (!match?.[1]) return undefined;
    gitDir = resolve(workspace, match[1]);
  }
  // A linked worktree keeps objects and info/ in the main repository, named by its `commondir` file.
  const common = (await readFile(join(gitDir, "commondir"), "utf8").catch(() => "")).trim();
  return { gitDir, commonDir: common ? (isAbsolute(common) ? common : resolve(gitDir, common)) : gitDir };
}

/** The path of the workspace repository's `info/exclude`, or undefined when the workspace is not a git repository root. */
export async function workspaceExcludeFile(workspace: string): Promise<string | undefined> {
  const dirs = await workspaceGitDirs(workspace);
  return dirs && join(dirs.commonDir, "info", "exclude");
}

/** A cheap fingerprint of a file (size and mtime), "" when it does not exist: tells when ignore rules changed. */
export async function fileStamp(path: string | undefined): Promise<string> {
  if (!path) return "";
  const info = await stat(path).catch(() => undefined);
  return info ? `${info.size}:${info.mtimeMs}` : "";
}
