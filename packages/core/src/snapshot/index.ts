/**
 * The snapshot engine: file history of a workspace in a shadow git repository, so whatever the
 * agent did — edit tools or shell commands — can be listed, diffed and undone.
 *
 * Wiring into a loop: `hash = await snapshots.track()` at a step's start (the step-start part's
 * `snapshot`); at its end `files = await snapshots.changedFiles(hash)` gives the `patch` part
 * `{ hash, files }`. To revert to a point, first `undo = await snapshots.track()` (kept for
 * unrevert), then for each later patch, oldest first per file, `revertFiles(patch.hash, files)` —
 * or `restore(hash)` of the step that starts there; unrevert is `restore(undo)`. `diff(hash)` feeds
 * session diffs. Paths are workspace-relative with `/`.
 *
 * @module
 */
export { Snapshots, SnapshotsOptions, type SnapshotGcOptions } from "./snapshots.js";
export { SnapshotFileDiff } from "./file-diff.js";
export {
  GitCommandError,
  GitNotFoundError,
  GitOutputError,
  SnapshotLockTimeoutError,
  SnapshotNotFoundError,
  SnapshotsDisabledError,
} from "./errors.js";
