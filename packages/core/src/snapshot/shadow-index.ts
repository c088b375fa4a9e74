// The two ways the engine edits the shadow index by path.
import { removalLine } from "./git-lines.js";
import type { ShadowRepository } from "./shadow-repository.js";

/**
 * Records the paths as they are on disk now: hashes files and links, drops paths that are gone, and
 * replaces a file by a directory or the other way round. Also refreshes each path's stat data.
 */
export async function recordPaths(repo: ShadowRepository, paths: readonly string[]): Promise<void> {
  if (paths.length === 0) return;
  await repo.git(["update-index", "--add", "--remove", "--replace", "-z", "--stdin"], { input: paths.map((path) => `${path}\0`).join("") });
}

/** Drops paths from the shadow index (not from disk); paths not in the index are passed over. */
export async function removeFromIndex(repo: ShadowRepository, paths: readonly string[]): Promise<void> {
  if (paths.length === 0) return;
  await repo.git(["update-index", "-z", "--index-info"], { input: paths.map(removalLine).join("") });
}
