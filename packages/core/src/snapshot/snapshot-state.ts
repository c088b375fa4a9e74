// What the engine remembers between runs beside the git objects: the files it left out for their
// size (so it can notice when they shrink or vanish) and a fingerprint of the workspace's exclude
// file (so it can notice when the ignore rules change). Kept as JSON inside the shadow repository.
import { readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";

/** The stored state of one shadow repository. */
export const SnapshotState = z.object({
  /** Workspace-relative paths left out of snapshots because they are larger than the limit. */
  largeFiles: z.array(z.string()),
  /** Fingerprint of the workspace's `.git/info/exclude` when the index was last purged of ignored files. */
  excludeStamp: z.string(),
  /** When `git gc` last ran (ms since the epoch). */
  gcAt: z.number(),
});
/** The stored state of one shadow repository. */
export type SnapshotState = z.infer<typeof SnapshotState>;

const STATE_FILE = "lathe-state.json";

/** The state of a repository that has none stored yet (or an unreadable one: the next run rebuilds it). */
export function freshState(): SnapshotState {
  return { largeFiles: [], excludeStamp: "", gcAt: Date.now() };
}

/** Reads the stored state, or undefined when there is none (or it cannot be read). */
export async function loadState(gitDir: string): Promise<SnapshotState | undefined> {
  const text = await readFile(join(gitDir, STATE_FILE), "utf8").catch(() => undefined);
  if (text !== undefined) {
    try {
      const parsed = SnapshotState.safeParse(JSON.parse(text));
      if (parsed.success) return parsed.data;
    } catch {
      // Corrupt JSON (a crash mid-write on a filesystem without atomic rename): start afresh.
    }
  }
  return undefined;
}

/** Writes the state atomically (temp file, then rename). */
export async function saveState(gitDir: string, state: SnapshotState): Promise<void> {
  const path = join(gitDir, STATE_FILE);
  const temp = `${path}.${process.pid}.tmp`;
  await writeFile(temp, JSON.stringify(state));
  await rename(temp, path);
}
