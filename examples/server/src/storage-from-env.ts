import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { SqliteStorage, type Storage } from "@lathe/storage";
import { PostgresStorage } from "@lathe/storage-postgres";

/** Options of {@link storageFromEnv}. */
export interface StorageFromEnvOptions {
  /** The SQLite file used when no `DATABASE_URL` is set. */
  sqlitePath: string;
}

/**
 * PostgreSQL when `DATABASE_URL` is set (many server processes can then share the sessions: each
 * session runs in one process at a time, under a lease), otherwise one SQLite file.
 */
export function storageFromEnv(env: NodeJS.ProcessEnv, options: StorageFromEnvOptions): { storage: Storage; kind: "postgres" | "sqlite" } {
  if (env.DATABASE_URL) return { storage: new PostgresStorage({ connectionString: env.DATABASE_URL }), kind: "postgres" };
  mkdirSync(dirname(options.sqlitePath), { recursive: true });
  return { storage: new SqliteStorage(options.sqlitePath), kind: "sqlite" };
}
