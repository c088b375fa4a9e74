import { makeSession, makeTextPart, makeUserMessage, runStorageConformance, type CorruptRecord } from "@lathe/storage/conformance";
import pg from "pg";
import { createId } from "@lathe/message";
import { CorruptRecordError, StorageOpenError, StorageVersionError } from "@lathe/storage";
import { hostname } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migratePostgres, type PostgresMigration } from "./postgres-migrations.js";
import { POSTGRES_STORAGE_SCHEMA_VERSION, PostgresStorage } from "./postgres-storage.js";
import { findPostgresBinDir, startTestPostgres, type TestPostgres } from "./test-server.js";

let server: TestPostgres;
let admin: pg.Pool;
let schemas = 0;
let schema = "";

beforeAll(async () => {
  server = await startTestPostgres();
  admin = new pg.Pool({ connectionString: server.connectionString });
  admin.on("error", () => {});
});

afterAll(async () => {
  await admin?.end();
  await server?.stop();
});

/** Replaces a record's stored text with a plain UPDATE, as a bad migration or a hand edit would. */
const corruptPostgresRecord: CorruptRecord = async (storage, record, text) => {
  const at = `"${(storage as PostgresStorage).schema}"`;
  const changed =
    record.kind === "session"
      ? await admin.query(`UPDATE ${at}.session SET data = $1 WHERE id = $2`, [text, record.sessionID])
      : record.kind === "message"
        ? await admin.query(`UPDATE ${at}.message SET data = $1 WHERE session_id = $2 AND id = $3`, [text, record.sessionID, record.messageID])
        : await admin.query(`UPDATE ${at}.part SET data = $1 WHERE session_id = $2 AND message_id = $3 AND id = $4`, [
            text,
            record.sessionID,
            record.messageID,
            record.partID,
          ]);
  expect(changed.rowCount).toBe(1);
};

runStorageConformance("PostgresStorage", {
  create: async ({ onCorrupt }) => {
    schema = `conformance_${++schemas}`;
    return new PostgresStorage({ connectionString: server.connectionString, schema, onCorrupt });
  },
  corrupt: corruptPostgresRecord,
  reopen: async () => new PostgresStorage({ connectionString: server.connectionString, schema }),
  cleanup: async () => {
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  },
});

runStorageConformance("PostgresStorage (host's pool)", {
  create: async () => {
    schema = `pooled_${++schemas}`;
    return new PostgresStorage({ pool: admin, schema });
  },
  cleanup: async () => {
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  },
});

describe("PostgresStorage schema", () => {
  let connectionString: string;
  beforeAll(async () => {
    connectionString = await server.createDatabase();
  });

  it("creates its schema and records the version in schema_version", async () => {
    const storage = await PostgresStorage.open({ connectionString, schema: "versioned" });
    expect(await storage.schemaVersion()).toBe(POSTGRES_STORAGE_SCHEMA_VERSION);
    await storage.close();
    const client = new pg.Client({ connectionString });
    await client.connect();
    const { rows } = await client.query("SELECT version FROM versioned.schema_version");
    expect(rows).toEqual([{ version: POSTGRES_STORAGE_SCHEMA_VERSION }]);
    const tables = await client.query("SELECT table_name FROM information_schema.tables WHERE table_schema = 'versioned' ORDER BY 1");
    expect(tables.rows.map((r) => r.table_name)).toEqual(["event", "lease", "message", "part", "schema_version", "session"]);
    await client.end();
  });

  it("migrates once when many workers open the same schema together", async () => {
    const storages = Array.from({ length: 6 }, () => new PostgresStorage({ connectionString, schema: "together" }));
    expect(await Promise.all(storages.map((s) => s.schemaVersion()))).toEqual(storages.map(() => POSTGRES_STORAGE_SCHEMA_VERSION));
    await Promise.all(storages.map((s) => s.close()));
  });

  it("refuses a schema written by a newer version", async () => {
    await (await PostgresStorage.open({ connectionString, schema: "newer" })).close();
    const client = new pg.Client({ connectionString });
    await client.connect();
    await client.query("UPDATE newer.schema_version SET version = 99");
    await client.end();
    await expect(PostgresStorage.open({ connectionString, schema: "newer" })).rejects.toBeInstanceOf(StorageVersionError);
    const lazy = new PostgresStorage({ connectionString, schema: "newer" });
    await expect(lazy.listSessions()).rejects.toMatchObject({ name: "StorageVersionError", found: 99 });
    await lazy.close();
  });

  it("migrates forward step by step in a transaction, keeping data", async () => {
    const pool = new pg.Pool({ connectionString });
    const client = await pool.connect();
    const v1: PostgresMigration = { version: 1, description: "t", up: async (c) => void (await c.query("CREATE TABLE t (x text)")) };
    const v2: PostgresMigration = { version: 2, description: "t.y", up: async (c) => void (await c.query("ALTER TABLE t ADD COLUMN y text DEFAULT 'new'")) };
    const broken: PostgresMigration = {
      version: 3,
      description: "fails",
      up: async (c) => {
        await c.query("CREATE TABLE half (x text)");
        throw new Error("step failed");
      },
    };
    expect(await migratePostgres(client, "stepwise", [v1])).toBe(1);
    await client.query("INSERT INTO stepwise.t (x) VALUES ('kept')");
    expect(await migratePostgres(client, "stepwise", [v1, v2])).toBe(2);
    await expect(migratePostgres(client, "stepwise", [v1, v2, broken])).rejects.toThrow("step failed");
    expect((await client.query("SELECT version FROM stepwise.schema_version")).rows).toEqual([{ version: 2 }]);
    expect((await client.query("SELECT to_regclass('stepwise.half') AS t")).rows).toEqual([{ t: null }]);
    expect((await client.query("SELECT x, y FROM stepwise.t")).rows).toEqual([{ x: "kept", y: "new" }]);
    client.release();
    await pool.end();
  });

  it("leaves a host's pool open on close, and ends its own", async () => {
    const pool = new pg.Pool({ connectionString });
    const borrowed = await PostgresStorage.open({ pool, schema: "borrowed" });
    await borrowed.close();
    expect((await pool.query("SELECT 1 AS one")).rows).toEqual([{ one: 1 }]);
    await pool.end();
    const own = await PostgresStorage.open({ connectionString, schema: "borrowed" });
    await own.close();
    await own.close();
    await expect(own.getSession("x")).rejects.toThrow();
  });

  it("rejects a schema name that is not a plain identifier", () => {
    expect(() => new PostgresStorage({ connectionString, schema: 'x"; DROP TABLE y; --' })).toThrow(TypeError);
  });

  it("fails to open, clearly, when the server cannot be reached", async () => {
    await expect(
      PostgresStorage.open({ connectionString: "postgresql://nobody@127.0.0.1:1/none?connect_timeout=2" }),
    ).rejects.toThrow(/ECONNREFUSED|connect/);
  });
});

describe("startTestPostgres", () => {
  it("fails with a clear message, never skipping, when the PostgreSQL binaries are missing", async () => {
    await expect(startTestPostgres({ binDir: "/nonexistent/postgresql/bin" })).rejects.toMatchObject({
      name: "TestPostgresError",
      message: expect.stringMatching(/not found in \/nonexistent\/postgresql\/bin.*apt-get install postgresql/s),
    });
  });

  it("finds the newest installed PostgreSQL", () => {
    expect(findPostgresBinDir()).toMatch(/^\/usr\/lib\/postgresql\/[\d.]+\/bin$/);
  });

  it("hands out fresh, empty databases", async () => {
    const [a, b] = [await server.createDatabase(), await server.createDatabase()];
    expect(a).not.toBe(b);
    const client = new pg.Client({ connectionString: a });
    await client.connect();
    expect((await client.query("SELECT current_database() AS db")).rows[0].db).toBe(a.split("/").at(-1));
    await client.end();
  });
});

describe("PostgresStorage damage, open errors and lease holders", () => {
  let connectionString: string;
  beforeAll(async () => {
    connectionString = await server.createDatabase();
  });

  it("reports parts whose message is not stored when it opens, and leaves them", async () => {
    const first = await PostgresStorage.open({ connectionString, schema: "orphans" });
    const session = makeSession();
    const message = makeUserMessage(session.id);
    await first.write({ sessions: [session], parts: [makeTextPart(session.id, message.id), makeTextPart(session.id, message.id)] });
    await first.close();
    const reported: CorruptRecordError[] = [];
    const storage = await PostgresStorage.open({ connectionString, schema: "orphans", onCorrupt: (e) => reported.push(e) });
    expect(reported).toHaveLength(1);
    expect(reported[0]).toMatchObject({ table: '"orphans".part', key: `${session.id}/${message.id}` });
    await storage.write({ messages: [message] });
    expect((await storage.listMessages(session.id))[0]?.parts).toHaveLength(2);
    await storage.close();
  });

  it("names the database (never the password) when it cannot open it", async () => {
    const error = await PostgresStorage.open({ connectionString: "postgres://lathe:secret@127.0.0.1:1/nowhere", schema: "unreachable" }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(StorageOpenError);
    expect((error as Error).message).toContain('PostgreSQL schema "unreachable" at postgres://127.0.0.1:1/nowhere');
    expect((error as Error).message).not.toContain("secret");
  });

  it("takes over at once a lease whose holder on this host is gone, and names a live one", async () => {
    const storage = await PostgresStorage.open({ connectionString, schema: "holders" });
    const [gone, live, remote] = [createId("session"), createId("session"), createId("session")];
    const db = new pg.Client({ connectionString });
    await db.connect();
    const plant = (sessionID: string, owner: string, host: string, pid: number) =>
      db.query(`INSERT INTO "holders".lease (session_id, owner, expires_at, host, pid) VALUES ($1, $2, $3, $4, $5)`, [
        sessionID,
        owner,
        Date.now() + 60_000,
        host,
        pid,
      ]);
    try {
      await plant(gone, "crashed", hostname(), 4_194_305);
      await plant(live, "parent", hostname(), process.ppid);
      await plant(remote, "remote", `not-${hostname()}`, 4_194_305);
      expect(await storage.acquireLease(gone, "next", 60_000)).toMatchObject({ owner: "next", host: hostname(), pid: process.pid });
      expect(await storage.acquireLease(live, "next", 60_000)).toBeUndefined();
      expect(await storage.getLease(live)).toMatchObject({ owner: "parent", host: hostname(), pid: process.ppid });
      expect(await storage.acquireLease(remote, "next", 60_000)).toBeUndefined();
    } finally {
      await db.end();
      await storage.close();
    }
  });
});
