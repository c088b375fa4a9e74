import { pendingMigrations, type Migration } from "@lathe/storage";
import type pg from "pg";

/** One step of the PostgreSQL schema; runs with `search_path` set to the storage's schema. */
export type PostgresMigration = Migration<pg.PoolClient>;

/**
 * Brings `schema` to the newest of `migrations` in one transaction, holding an advisory lock on the
 * schema's name so workers opening the database together migrate it once, and recording the version
 * in `schema_version`.
 *
 * @returns the schema version the database has now.
 * @throws `StorageVersionError` (from `@lathe/storage`) when the database is newer than the migrations.
 */
export async function migratePostgres(client: pg.PoolClient, schema: string, migrations: readonly PostgresMigration[]): Promise<number> {
  await client.query("BEGIN");
  try {
    await client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`lathe-migrate:${schema}`]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    await client.query(`SET LOCAL search_path TO "${schema}"`);
    await client.query("CREATE TABLE IF NOT EXISTS schema_version (version integer NOT NULL)");
    const { rows } = await client.query<{ version: number | null }>("SELECT max(version) AS version FROM schema_version");
    const current = rows[0]?.version ?? 0;
    const pending = pendingMigrations(`PostgreSQL schema "${schema}"`, current, migrations);
    for (const migration of pending) await migration.up(client);
    const version = pending.at(-1)?.version ?? current;
    if (pending.length) {
      await client.query("DELETE FROM schema_version");
      await client.query("INSERT INTO schema_version (version) VALUES ($1)", [version]);
    }
    await client.query("COMMIT");
    return version;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  }
}
