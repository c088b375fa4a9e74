import type { DatabaseSync } from "node:sqlite";
import { pendingMigrations, type Migration } from "./migrations.js";

/** Runs `fn` in a `BEGIN IMMEDIATE` transaction (the write lock, waited for up to the busy timeout). */
export function immediateTransaction<T>(db: DatabaseSync, fn: () => T): T {
  db.exec("BEGIN IMMEDIATE");
  try {
    const result = fn();
    db.exec("COMMIT");
    return result;
  } catch (error) {
    if (db.isTransaction) db.exec("ROLLBACK");
    throw error;
  }
}

/**
 * Brings the database's schema to the newest of `migrations`, each step in its own transaction
 * together with the new version in `schema_version`. The version is read inside the transaction, so
 * two processes opening one file at once migrate it once.
 *
 * @returns the schema version the database has now.
 * @throws {@link StorageVersionError} when the database is newer than the migrations.
 */
export function migrateSqlite(db: DatabaseSync, location: string, migrations: ReadonlyArray<Migration<DatabaseSync>>): number {
  for (;;) {
    const step = immediateTransaction(db, () => {
      db.exec("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)");
      const row = db.prepare("SELECT max(version) AS version FROM schema_version").get() as { version: number | null };
      const current = row.version ?? 0;
      const next = pendingMigrations(location, current, migrations)[0];
      if (!next) return { done: true, version: current };
      next.up(db);
      db.prepare("DELETE FROM schema_version").run();
      db.prepare("INSERT INTO schema_version (version) VALUES (?)").run(next.version);
      return { done: false, version: next.version };
    });
    if (step.done) return step.version;
  }
}
