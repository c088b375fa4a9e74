import { latestVersion } from "@lathe/storage";
import type { PostgresMigration } from "./postgres-migrations.js";

/** The schema of PostgresStorage and PostgresEventLog (event-log.ts), one step per version: the same tables, one version. Ids compare byte-wise (`COLLATE "C"`), the order createId makes them in, whatever the database's locale. */
export const MIGRATIONS: PostgresMigration[] = [
  {
    version: 1,
    description: "session, message, part and lease tables",
    async up(client) {
      await client.query(`
        CREATE TABLE session (id text COLLATE "C" PRIMARY KEY, parent_id text COLLATE "C", data text NOT NULL);
        CREATE INDEX session_parent ON session (parent_id, id);
        CREATE TABLE message (
          session_id text COLLATE "C" NOT NULL, id text COLLATE "C" NOT NULL, data text NOT NULL,
          PRIMARY KEY (session_id, id)
        );
        CREATE TABLE part (
          session_id text COLLATE "C" NOT NULL, message_id text COLLATE "C" NOT NULL, id text COLLATE "C" NOT NULL,
          data text NOT NULL,
          PRIMARY KEY (session_id, message_id, id)
        );
        CREATE TABLE lease (session_id text COLLATE "C" PRIMARY KEY, owner text NOT NULL, expires_at bigint NOT NULL);
      `);
    },
  },
  {
    version: 2,
    description: "lease holder's host and pid",
    async up(client) {
      await client.query("ALTER TABLE lease ADD COLUMN host text, ADD COLUMN pid integer");
    },
  },
  {
    version: 3,
    description: "session event log (subscribers resume from a per-session sequence number)",
    async up(client) {
      await client.query(`
        CREATE TABLE event (session_id text COLLATE "C" NOT NULL, seq bigint NOT NULL, data text NOT NULL, PRIMARY KEY (session_id, seq));
      `);
    },
  },
];

/** The schema version {@link PostgresStorage} writes, kept in the `schema_version` table. */
export const POSTGRES_STORAGE_SCHEMA_VERSION = latestVersion(MIGRATIONS);
