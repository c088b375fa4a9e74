// The public face of the snapshot engine: one `Snapshots` per agent and workspace.
import { createHash } from "node:crypto";
import { realpathSync, statSync } from "node:fs";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { z } from "zod";
import { InvalidInputError } from "../errors.js";
import { applyChanges } from "./apply-changes.js";
import { SnapshotsDisabledError } from "./errors.js";
import { fileDiffs, type SnapshotFileDiff } from "./file-diff.js";
import { collectGarbage } from "./gc.js";
import { withRepositoryLock } from "./repository-lock.js";
import { ShadowRepository } from "./shadow-repository.js";
import { stageWorkspace } from "./stage.js";
import { diffTrees, type TreeChange } from "./tree-diff.js";

const DAY_MS = 24 * 60 * 60 * 1000;

/** Options of {@link Snapshots}. */
export const SnapshotsOptions = z.object({
  /** The workspace directory to snapshot (must exist). */
  workspace: z.string().min(1),
  /**
   * The agent's data directory; shadow repositories live in `<dataDir>/snapshots/<workspace id>`.
   * When it lies inside the workspace, it is left out of snapshots.
   */
  dataDir: z.string().min(1),
  /** False turns snapshots off: {@link Snapshots.enabled} is false and every method throws {@link SnapshotsDisabledError}. Default true. */
  enabled: z.boolean().default(true),
  /** Files larger than this many bytes are left out of snapshots (never staged, never restored). Default 2 MiB. */
  maxFileSize: z.number().int().nonnegative().default(2 * 1024 * 1024),
  /** The git executable. Default "git" (looked up on PATH). */
  gitPath: z.string().min(1).default("git"),
  /** `track()` runs `git gc` when the last run is at least this old (ms); 0 leaves gc to {@link Snapshots.gc}. Default one day. */
  gcIntervalMs: z.number().nonnegative().default(DAY_MS),
  /** Snapshots taken within this long (ms) survive gc; older ones may be collected. Default 7 days. */
  keepForMs: z.number().nonnegative().default(7 * DAY_MS),
});
/** Options of {@link Snapshots} (fields with defaults may be left out). */
export type SnapshotsOptions = z.input<typeof SnapshotsOptions>;

/** Options of {@link Snapshots.gc}. */
export interface SnapshotGcOptions {
  /** Run even if the last gc is more recent than the interval. */
  force?: boolean;
}

const TREE_HASH = /^[0-9a-f]{40}$/;

/**
 * File history of one workspace, kept in a shadow git repository in the agent's data directory
 * (`--git-dir` there, `--work-tree` the workspace): the workspace's own `.git` is never written,
 * and workspaces that are not git repositories work the same. In a git workspace a new shadow
 * repository starts from a copy of the workspace's index and borrows its object store (as
 * `git clone --shared` does), so the first snapshot hashes only the files that differ from the
 * index and costs about one `git status`; git may refresh the mtime of a borrowed object file,
 * which also keeps it from being pruned. Elsewhere the shadow index is the stat cache: a file whose
 * size and times have not changed is not hashed again, across steps and processes.
 *
 * A snapshot is a git tree hash. {@link Snapshots.track} records the workspace — every file that
 * neither the workspace's `.gitignore` files nor its `.git/info/exclude` ignore, up to
 * `maxFileSize` bytes — without commits; {@link Snapshots.changedFiles} and {@link Snapshots.diff}
 * compare snapshots; {@link Snapshots.restore} and {@link Snapshots.revertFiles} bring files back.
 * Whatever changed the files (edit tools, shell commands, the user) is seen.
 *
 * Operations on one shadow repository run one at a time, across all instances in this process and
 * across processes sharing the data directory. Needs git (tested with 2.39); fails with `GitNotFoundError`
 * when git is missing and `GitCommandError` (with git's stderr) when a command fails.
 *
 * @example
 * ```ts
 * const snapshots = new Snapshots({ workspace: "/repo", dataDir: "/home/me/.lathe" });
 * const before = await snapshots.track();
 * // … the agent edits files and runs commands …
 * const files = await snapshots.changedFiles(before); // ["src/a.ts", "build.log"]
 * await snapshots.restore(before); // undo all of it
 * ```
 */
export class Snapshots {
  /** False when made with `enabled: false`: the agent loop then takes no snapshots. */
  readonly enabled: boolean;
  /** The workspace (absolute, symlinks resolved). */
  readonly workspace: string;
  /** The shadow repository's git directory. */
  readonly gitDir: string;
  private readonly repo: ShadowRepository;
  private readonly options: z.output<typeof SnapshotsOptions>;

  /** @throws InvalidInputError when the options are invalid or the workspace is not a directory. */
  constructor(options: SnapshotsOptions) {
    const parsed = SnapshotsOptions.safeParse(options);
    if (!parsed.success) throw new InvalidInputError(`Invalid snapshot options: ${z.prettifyError(parsed.error)}`);
    this.options = parsed.data;
    this.enabled = parsed.data.enabled;
    this.workspace = existingDirectory(parsed.data.workspace);
    const id = createHash("sha1").update(this.workspace).digest("hex").slice(0, 16);
    const dataDir = resolvedPath(parsed.data.dataDir);
    this.gitDir = join(dataDir, "snapshots", id);
    this.repo = new ShadowRepository({ gitPath: parsed.data.gitPath, gitDir: this.gitDir, workTree: this.workspace }, dataDir);
  }

  /**
   * Records the workspace as it is now and returns its snapshot (a git tree hash). The same files
   * give the same hash. No commit is made; the shadow index keeps stat data, so a run after a
   * small change costs about one `git status`. Runs gc first when it is due (`gcIntervalMs`).
   */
  track(): Promise<string> {
    return this.locked(async () => {
      const tree = await stageWorkspace(this.repo, this.options.maxFileSize);
      if (this.options.gcIntervalMs > 0) await collectGarbage(this.repo, this.options.keepForMs, this.options.gcIntervalMs, false);
      return tree;
    });
  }

  /**
   * Workspace-relative paths (`/`-separated, sorted as git sorts) that differ from snapshot `from`
   * to snapshot `to` — or to the workspace now when `to` is absent. A renamed file gives both its
   * old and its new path.
   */
  changedFiles(from: string, to?: string): Promise<string[]> {
    return this.locked(async () => (await this.changes(from, to)).map((change) => change.path));
  }

  /**
   * Per-file differences from snapshot `from` to snapshot `to` (or to the workspace now): text on
   * both sides, line counts, status; binary files are flagged and not diffed.
   */
  diff(from: string, to?: string): Promise<SnapshotFileDiff[]> {
    return this.locked(async () => fileDiffs(this.repo, await this.changes(from, to)));
  }

  /**
   * Makes the workspace's recorded files exactly as in snapshot `tree`: files created since are
   * deleted (and directories left empty removed), deleted ones come back, modified ones are
   * reverted, byte for byte with their modes. Files the policy leaves out (ignored, or larger
   * than `maxFileSize`) and absent from `tree` are not touched. Take a {@link Snapshots.track}
   * first if you want to be able to come back (unrevert).
   *
   * @throws SnapshotNotFoundError when `tree` is not in the shadow repository.
   */
  restore(tree: string): Promise<void> {
    return this.locked(async () => {
      await this.repo.assertTree(checkedHash(tree));
      const current = await stageWorkspace(this.repo, this.options.maxFileSize);
      await applyChanges(this.repo, await diffTrees(this.repo, current, tree));
    });
  }

  /**
   * Like {@link Snapshots.restore}, but only for `paths` (workspace-relative or absolute inside the
   * workspace; a directory stands for every file under it): each comes back as in `tree`, or is
   * deleted when `tree` does not have it.
   *
   * @throws InvalidInputError when a path lies outside the workspace.
   * @throws SnapshotNotFoundError when `tree` is not in the shadow repository.
   */
  revertFiles(tree: string, paths: readonly string[]): Promise<void> {
    return this.locked(async () => {
      await this.repo.assertTree(checkedHash(tree));
      const wanted = paths.map((path) => this.workspacePath(path));
      if (wanted.length === 0) return;
      const current = await stageWorkspace(this.repo, this.options.maxFileSize);
      const changes = await diffTrees(this.repo, current, tree);
      await applyChanges(this.repo, changes.filter((change) => wanted.some((path) => covers(path, change.path))));
    });
  }

  /**
   * Runs `git gc --prune` on the shadow repository when the last run is at least `gcIntervalMs`
   * old (or with `force`), dropping snapshots older than `keepForMs`. Resolves true when it ran.
   */
  gc(options: SnapshotGcOptions = {}): Promise<boolean> {
    return this.locked(() => collectGarbage(this.repo, this.options.keepForMs, this.options.gcIntervalMs, options.force === true));
  }

  private async changes(from: string, to: string | undefined): Promise<TreeChange[]> {
    await this.repo.assertTree(checkedHash(from));
    if (to !== undefined) await this.repo.assertTree(checkedHash(to));
    const target = to ?? (await stageWorkspace(this.repo, this.options.maxFileSize));
    return diffTrees(this.repo, from, target);
  }

  private locked<T>(operation: () => Promise<T>): Promise<T> {
    if (!this.enabled) return Promise.reject(new SnapshotsDisabledError());
    return withRepositoryLock(this.gitDir, operation);
  }

  /** `path` as a workspace-relative, `/`-separated path ("" for the workspace itself). */
  private workspacePath(path: string): string {
    if (typeof path !== "string" || path === "") throw new InvalidInputError("A path to revert must be a non-empty string.");
    const given = resolve(this.options.workspace, path);
    for (const base of [this.workspace, resolve(this.options.workspace)]) {
      const inside = relative(base, isAbsolute(path) ? path : join(base, path));
      if (inside !== ".." && !inside.startsWith(`..${sep}`) && !isAbsolute(inside)) return inside.split(sep).join("/");
    }
    throw new InvalidInputError(`${given} is outside the workspace ${this.workspace}.`);
  }
}

/** True when `wanted` (a path or directory, "" for all) covers the file `path`. */
function covers(wanted: string, path: string): boolean {
  return wanted === "" || path === wanted || path.startsWith(`${wanted}/`);
}

function checkedHash(hash: string): string {
  if (typeof hash !== "string" || !TREE_HASH.test(hash)) throw new InvalidInputError(`Not a snapshot hash: ${JSON.stringify(hash)}.`);
  return hash;
}

function existingDirectory(path: string): string {
  const info = statSync(path, { throwIfNoEntry: false });
  if (!info?.isDirectory()) throw new InvalidInputError(`The workspace ${path} is not a directory.`);
  return realpathSync.native(path);
}

/** `path` made absolute, with symlinks resolved as far as it exists (the data directory may not yet). */
function resolvedPath(path: string): string {
  try {
    return realpathSync.native(path);
  } catch {
    return resolve(path);
  }
}
