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

/** Where a damaged record is: a file, or a table row (and the database it is in). */
export interface RecordLocation {
  /** The file (FileStorage), or the database file (SQLite). */
  path?: string;
  /** The table the row is in (SQLite, PostgreSQL). */
  table?: string;
  /** The row's key, its key columns joined by `/` (`<sessionID>/<messageID>/<partID>` for a part). */
  key?: string;
}

function describeLocation(where: RecordLocation): string {
  const row = where.table ? `${where.table} ${where.key ?? "?"}` : where.key;
  if (row && where.path) return `${row} in ${where.path}`;
  return row ?? where.path ?? "(unknown)";
}

/**
 * A stored record could not be read back: it is not the JSON Lathe wrote, or not a record of the
 * kind and key it is stored under (damaged by something other than Lathe), or a store's file is not
 * what it should be (a SQLite "database" that is no database). Adapters skip such records in lists
 * and report them (their `onCorrupt` option) rather than fail the whole list, and never rewrite them.
 */
export class CorruptRecordError extends Error {
  override readonly name = "CorruptRecordError";
  /** Where the record is, in words: a file path, or a table and key (and the database file). */
  readonly location: string;
  /** The file: the record's own (FileStorage) or the database's (SQLite). */
  readonly path?: string;
  /** The table, for a database row. */
  readonly table?: string;
  /** The row's or file's key: its ids joined by `/`. */
  readonly key?: string;

  constructor(where: string | RecordLocation, cause: unknown) {
    const at = typeof where === "string" ? { path: where } : where;
    const location = describeLocation(at);
    super(`cannot read stored record at ${location}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.location = location;
    if (at.path !== undefined) this.path = at.path;
    if (at.table !== undefined) this.table = at.table;
    if (at.key !== undefined) this.key = at.key;
  }
}

/**
 * What an adapter calls for each damaged record it skips (its `onCorrupt` option). The default
 * reports it as a process warning (`process.emitWarning`), so it is never silent.
 */
export type CorruptRecordHandler = (error: CorruptRecordError) => void;

/** The default {@link CorruptRecordHandler}: a process warning naming the record. */
export const warnCorruptRecord: CorruptRecordHandler = (error) => {
  process.emitWarning(error.message, { type: "CorruptRecordWarning", code: "LATHE_CORRUPT_RECORD" });
};

/** A store could not be opened (the path is a directory, not writable, the server unreachable…). */
export class StorageOpenError extends Error {
  override readonly name = "StorageOpenError";
  /** What was being opened: a file or directory path, or a database and schema. */
  readonly location: string;

  constructor(location: string, cause: unknown) {
    super(`cannot open storage at ${location}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
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
