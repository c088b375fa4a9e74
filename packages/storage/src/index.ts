/**
 * Lathe's storage contract and its adapters: {@link MemoryStorage} (the default), {@link FileStorage}
 * and {@link SqliteStorage}. The conformance suite that checks an adapter against the contract is
 * exported from `@lathe/storage/conformance`.
 *
 * @module @lathe/storage
 */
export type { Storage, SessionQuery, SessionPage, Lease } from "./storage.js";
export { ForwardingStorage } from "./forwarding-storage.js";
export { WriteBatch, MessageKey, PartKey, validateBatch, type ValidBatch } from "./write-batch.js";
export {
  InvalidBatchError,
  StorageVersionError,
  CorruptRecordError,
  StorageLockTimeoutError,
  InvalidIdError,
  StorageOpenError,
  warnCorruptRecord,
  type BatchIssue,
  type RecordLocation,
  type CorruptRecordHandler,
} from "./errors.js";
export {
  parseStoredRecord,
  checkStoredRecord,
  keepIntact,
  parseJoinedRecords,
  KEY_FIELD_SEPARATOR,
  KEY_RECORD_SEPARATOR,
  type RecordKey,
} from "./stored-record.js";
export { leaseFromRow, type LeaseRow } from "./lease-row.js";
export { isProcessAlive, thisHost, thisProcess, holderIsGone } from "./process-alive.js";
export { pendingMigrations, latestVersion, type Migration } from "./migrations.js";
export { DEFAULT_PAGE_SIZE, pageLimit, matchesQuery } from "./session-query.js";
export { MemoryStorage } from "./memory-storage.js";
export { FileStorage, FILE_STORAGE_SCHEMA_VERSION, type FileStorageOptions } from "./file-storage.js";
export { SqliteStorage, SQLITE_STORAGE_SCHEMA_VERSION, type SqliteStorageOptions } from "./sqlite-storage.js";
