/** One problem found in a write batch: where (`parts.3.state.status`) and what. */
export interface BatchIssue {
  path: string;
  message: string;
}

/** A write batch held a record that does not match its schema; nothing of the batch was stored. */
export class InvalidBatchError extends Error {
  override readonly name = "InvalidBatchError";
  readonly issues: BatchIssue[];

  constructor(issues: BatchIssue[]) {
    const first = issues[0];
    super(`invalid write batch${first ? `: ${first.path || "(root)"}: ${first.message}` : ""}${issues.length > 1 ? ` (+${issues.length - 1} more)` : ""}`);
    this.issues = issues;
  }
}

/**
 * The store was written by a newer version of the adapter than this one (its schema version is
 * higher than any this code knows), so it is not opened rather than risk damaging it.
 */
export class StorageVersionError extends Error {
  override readonly name = "StorageVersionError";
  /** The version found in the store. */
  readonly found: number;
  /** The newest version this adapter knows. */
  readonly supported: number;
  /** Where the store is (a directory, a file, a database schema). */
  readonly location: string;

  constructor(location: string, found: number, supported: number) {
    super(`storage at ${location} has schema version ${found}, newer than the ${supported} this version of Lathe supports`);
    this.location = location;
    this.found = found;
    this.supported = supported;
  }
}

/** A stored record could not be read back (damaged by something other than Lathe). */
export class CorruptRecordError extends Error {
  override readonly name = "CorruptRecordError";
  /** Where the record is (a file path, a table and key). */
  readonly location: string;

  constructor(location: string, cause: unknown) {
    super(`cannot read stored record at ${location}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.location = location;
  }
}

/** A file lock stayed held longer than a lease operation may wait (another process is stuck in it). */
export class StorageLockTimeoutError extends Error {
  override readonly name = "StorageLockTimeoutError";
  /** The lock file. */
  readonly path: string;

  constructor(path: string, waitedMs: number) {
    super(`lock ${path} still held after ${waitedMs} ms`);
    this.path = path;
  }
}

/** An id that cannot name a file (FileStorage keeps ids as file names). */
export class InvalidIdError extends Error {
  override readonly name = "InvalidIdError";
  readonly id: string;

  constructor(id: string) {
    super(`id ${JSON.stringify(id)} may only hold letters, digits, '_', '-' and '.', and may not start with '.'`);
    this.id = id;
  }
}
