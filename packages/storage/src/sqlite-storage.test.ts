import { runStorageConformance, type CorruptRecord } from "@lathe/storage/conformance";
import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { DatabaseSync } from "node:sqlite";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeSession, makeTextPart, makeUserMessage } from "./conformance-fixtures.js";
import { StorageVersionError } from "./errors.js";
import type { Migration } from "./migrations.js";
import { migrateSqlite } from "./sqlite-migrations.js";
import { SQLITE_STORAGE_SCHEMA_VERSION, SqliteStorage } from "./sqlite-storage.js";

let dir = "";

const rawDatabase = (path: string) => new (createRequire(import.meta.url)("node:sqlite") as typeof import("node:sqlite")).DatabaseSync(path);

/** Replaces a record's stored text with a plain UPDATE, as a damaged disk or a hand edit would. */
export const corruptSqliteRecord: CorruptRecord = async (storage, record, text) => {
  const db = rawDatabase((storage as SqliteStorage).path);
  try {
    const changed =
      record.kind === "session"
        ? db.prepare("UPDATE session SET data = ? WHERE id = ?").run(text, record.sessionID)
        : record.kind === "message"
          ? db.prepare("UPDATE message SET data = ? WHERE session_id = ? AND id = ?").run(text, record.sessionID, record.messageID)
          : db.prepare("UPDATE part SET data = ? WHERE session_id = ? AND message_id = ? AND id = ?").run(text, record.sessionID, record.messageID, record.partID);
    expect(changed.changes).toBe(1);
  } finally {
    db.close();
  }
};

runStorageConformance("SqliteStorage", {
  create: async ({ onCorrupt }) => {
    dir = await mkdtemp(join(tmpdir(), "lathe-sqlite-storage-"));
    return new SqliteStorage(join(dir, "lathe.db"), { onCorrupt });
  },
  corrupt: corruptSqliteRecord,
  reopen: async () => new SqliteStorage(join(dir, "lathe.db")),
  cleanup: () => rm(dir, { recursive: true, force: true }),
});

runStorageConformance("SqliteStorage(:memory:)", { create: async () => new SqliteStorage(":memory:") });

describe("SqliteStorage on disk", () => {
  let root: string;
  let path: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), "lathe-sqlite-"));
    path = join(root, "lathe.db");
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  const raw = () => new (createRequire(import.meta.url)("node:sqlite") as typeof import("node:sqlite")).DatabaseSync(path);

  it("uses WAL and records its schema version in schema_version", async () => {
    const storage = new SqliteStorage(path);
    expect(await storage.schemaVersion()).toBe(SQLITE_STORAGE_SCHEMA_VERSION);
    await storage.close();
    const db = raw();
    expect(db.prepare("PRAGMA journal_mode").get()).toEqual({ journal_mode: "wal" });
    expect(db.prepare("SELECT version FROM schema_version").all()).toEqual([{ version: SQLITE_STORAGE_SCHEMA_VERSION }]);
    db.close();
  });

  it("refuses a database written by a newer version, leaving it untouched", async () => {
    await new SqliteStorage(path).close();
    const db = raw();
    db.exec("UPDATE schema_version SET version = 99");
    db.close();
    expect(() => new SqliteStorage(path)).toThrow(StorageVersionError);
    try {
      new SqliteStorage(path);
    } catch (error) {
      expect(error).toMatchObject({ name: "StorageVersionError", found: 99, supported: SQLITE_STORAGE_SCHEMA_VERSION });
    }
    const after = raw();
    expect(after.prepare("SELECT version FROM schema_version").get()).toEqual({ version: 99 });
    after.close();
  });

  it("migrates forward step by step, keeping data, and never runs a step twice", () => {
    const db = raw();
    const ran: number[] = [];
    const v1: Migration<DatabaseSync> = { version: 1, description: "t", up: (d) => (ran.push(1), d.exec("CREATE TABLE t (x TEXT)")) };
    const v2: Migration<DatabaseSync> = { version: 2, description: "t.y", up: (d) => (ran.push(2), d.exec("ALTER TABLE t ADD COLUMN y TEXT DEFAULT 'new'")) };
    expect(migrateSqlite(db, path, [v1])).toBe(1);
    db.exec("INSERT INTO t (x) VALUES ('kept')");
    expect(migrateSqlite(db, path, [v1, v2])).toBe(2);
    expect(migrateSqlite(db, path, [v2, v1])).toBe(2);
    expect(ran).toEqual([1, 2]);
    expect(db.prepare("SELECT x, y FROM t").all()).toEqual([{ x: "kept", y: "new" }]);
    expect(() => migrateSqlite(db, path, [v1])).toThrow(StorageVersionError);
    db.close();
  });

  it("rolls a failed migration step back whole", () => {
    const db = raw();
    const broken: Migration<DatabaseSync> = {
      version: 1,
      description: "fails half-way",
      up: (d) => {
        d.exec("CREATE TABLE half (x TEXT)");
        throw new Error("step failed");
      },
    };
    expect(() => migrateSqlite(db, path, [broken])).toThrow("step failed");
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'half'").get()).toBeUndefined();
    const fixed: Migration<DatabaseSync> = { version: 1, description: "works", up: (d) => d.exec("CREATE TABLE half (x TEXT)") };
    expect(migrateSqlite(db, path, [fixed])).toBe(1);
    db.close();
  });

  it("rejects migrations numbered with gaps", () => {
    const db = raw();
    const step = (version: number): Migration<DatabaseSync> => ({ version, description: "", up: () => {} });
    expect(() => migrateSqlite(db, path, [step(1), step(3)])).toThrow(/without gaps/);
    db.close();
  });

  it("waits up to the busy timeout for another connection's write lock", async () => {
    const storage = new SqliteStorage(path, { busyTimeoutMs: 2_000 });
    const other = raw();
    other.exec("BEGIN IMMEDIATE");
    const started = Date.now();
    // The other connection never lets go, so the write fails, but only once the busy timeout is spent.
    await expect(storage.write({ sessions: [makeSession()] })).rejects.toThrow(/locked|busy/i);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_900);
    other.exec("COMMIT");
    other.close();
    await storage.close();
  });

  it("loads a 10,000-part session in one piece, parts in id order", async () => {
    const storage = new SqliteStorage(path);
    const session = makeSession();
    const messages = Array.from({ length: 10 }, () => makeUserMessage(session.id));
    const parts = messages.flatMap((m) => Array.from({ length: 1_000 }, (_, i) => makeTextPart(session.id, m.id, `text ${i} `.repeat(10))));
    await storage.write({ sessions: [session], messages, parts });
    const loaded = await storage.listMessages(session.id);
    expect(loaded.map((m) => m.info.id)).toEqual(messages.map((m) => m.id));
    expect(loaded.flatMap((m) => m.parts)).toEqual(parts);
    await storage.close();
  });
});
