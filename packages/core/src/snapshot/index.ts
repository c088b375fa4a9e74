/**
 * The snapshot engine: file history of a workspace in a shadow git repository, so whatever the
 * agent did — edit tools or shell commands — can be listed, diffed and undone.
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
