/**
 * PostgreSQL storage for Lathe: {@link PostgresStorage}, for hosts that run many workers sharing
 * sessions. Also exports {@link startTestPostgres}, a test utility that runs a throwaway server.
 *
 * @module @lathe/storage-postgres
 */
export { PostgresStorage, POSTGRES_STORAGE_SCHEMA_VERSION, type PostgresStorageOptions } from "./postgres-storage.js";
export { migratePostgres, type PostgresMigration } from "./postgres-migrations.js";
export {
  startTestPostgres,
  findPostgresBinDir,
  TestPostgresError,
  type TestPostgres,
  type TestPostgresOptions,
} from "./test-server.js";
export { PostgresEventLog, type PostgresEventLogOptions, type LoggedEvent, type SubscribeOptions } from "./event-log.js";
