// Typed failures of the snapshot engine: the host can tell "git is not installed" from "git refused".

/** Thrown when the git executable cannot be started (not installed, or not on `PATH`). */
export class GitNotFoundError extends Error {
  override readonly name = "GitNotFoundError";
  constructor(
    /** The executable that was tried. */
    readonly gitPath: string,
    options?: ErrorOptions,
  ) {
    super(`Snapshots need git, but "${gitPath}" could not be started. Install git or pass gitPath.`, options);
  }
}

/** Thrown when a git command run by the snapshot engine exits with an error. */
export class GitCommandError extends Error {
  override readonly name = "GitCommandError";
  constructor(
    /** The git arguments (after the fixed isolation options). */
    readonly args: readonly string[],
    /** The exit code, or null when git was killed by a signal. */
    readonly exitCode: number | null,
    /** What git wrote to stderr, trimmed. */
    readonly stderr: string,
  ) {
    super(`git ${args.join(" ")} failed (exit ${exitCode ?? "signal"}): ${stderr || "no error output"}`);
  }
}

/** Thrown when a snapshot hash names no tree in the shadow repository (never tracked here, or garbage-collected). */
export class SnapshotNotFoundError extends Error {
  override readonly name = "SnapshotNotFoundError";
  constructor(readonly hash: string) {
    super(`Snapshot ${hash} is not in the snapshot repository: it was taken elsewhere or has been garbage-collected.`);
  }
}

/** Thrown by the methods of a {@link Snapshots} made with `enabled: false`. */
export class SnapshotsDisabledError extends Error {
  override readonly name = "SnapshotsDisabledError";
  constructor() {
    super("Snapshots are turned off for this agent.");
  }
}

/** Thrown when another process holds the snapshot repository's lock for longer than the wait allows. */
export class SnapshotLockTimeoutError extends Error {
  override readonly name = "SnapshotLockTimeoutError";
  constructor(
    /** The lock file. */
    readonly lockPath: string,
    /** How long was waited, in milliseconds. */
    readonly waitedMs: number,
  ) {
    super(`Timed out after ${waitedMs} ms waiting for the snapshot lock ${lockPath}.`);
  }
}

/** Thrown when git's output is not in the expected format (a git version the engine does not understand). */
export class GitOutputError extends Error {
  override readonly name = "GitOutputError";
  constructor(
    /** The git command. */
    readonly command: string,
    /** The part of the output that could not be read. */
    readonly output: string,
  ) {
    super(`Unexpected output from git ${command}: ${JSON.stringify(output.slice(0, 200))}`);
  }
}
