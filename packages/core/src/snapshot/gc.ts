// Garbage collection of the shadow repository. Snapshots are bare trees that no ref points to, so
// git keeps them only as long as `--prune` allows: a tree written (or re-written) within `keepForMs`
// survives, with everything it references; older ones go. A stored timestamp keeps gc to at most
// one run per interval, whoever asks.
import type { ShadowRepository } from "./shadow-repository.js";
import { freshState, loadState, saveState } from "./snapshot-state.js";

/** Runs `git gc --prune` if the last run is at least `intervalMs` ago (or `force`); true when it ran. */
export async function collectGarbage(repo: ShadowRepository, keepForMs: number, intervalMs: number, force: boolean): Promise<boolean> {
  await repo.ensureCreated();
  const state = (await loadState(repo.gitDir)) ?? freshState();
  if (!force && Date.now() - state.gcAt < intervalMs) return false;
  await repo.git(["gc", "--quiet", `--prune=${Math.max(0, Math.floor(keepForMs / 1000))}.seconds.ago`]);
  await saveState(repo.gitDir, { ...state, gcAt: Date.now() });
  return true;
}
