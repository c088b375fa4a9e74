// Adapter-specific damage (the record-level cases run for every adapter in the conformance suite):
// files that are no store, leftovers of crashed processes, parts without their message, and folders
// that do not exist yet.
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeSession, makeTextPart, makeUserMessage } from "./conformance-fixtures.js";
import { CorruptRecordError, StorageOpenError } from "./errors.js";
import { FileStorage } from "./file-storage.js";
import { SqliteStorage } from "./sqlite-storage.js";

/** A pid no live process has (above Linux's default pid_max). */
const DEAD_PID = 4_194_305;

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "lathe-damage-"));
});
afterEach(() => rm(root, { recursive: true, force: true }));

const catching = (fn: () => unknown): unknown => {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error("expected it to throw");
};

describe("SqliteStorage", () => {
  it.each([
    ["text", "hello, I am not a database\n".repeat(200)],
    ["random bytes", Buffer.from(Array.from({ length: 8192 }, (_, i) => (i * 7919) % 256))],
    ["a JSON file", JSON.stringify({ sessions: [] })],
  ])("refuses a file of %s with CorruptRecordError naming its path, leaving it untouched", async (_, content) => {
    const path = join(root, "lathe.db");
    await writeFile(path, content);
    const error = catching(() => new SqliteStorage(path));
    expect(error).toBeInstanceOf(CorruptRecordError);
    expect(error).toMatchObject({ path });
    expect((error as Error).message).toContain(path);
    expect(await readFile(path)).toEqual(Buffer.from(content));
  });

  it("creates the folders its file is in", async () => {
    const path = join(root, "a", ".lathe", "db.sqlite");
    const storage = new SqliteStorage(path);
    await storage.write({ sessions: [makeSession()] });
    await storage.close();
    expect(existsSync(path)).toBe(true);
  });

  it("creates ./.lathe/db.sqlite from a relative path in an empty directory", async () => {
    const before = process.cwd();
    process.chdir(root);
    try {
      const storage = new SqliteStorage("./.lathe/db.sqlite");
      expect(storage.path).toBe(join(root, ".lathe", "db.sqlite"));
      await storage.close();
    } finally {
      process.chdir(before);
    }
    expect(existsSync(join(root, ".lathe", "db.sqlite"))).toBe(true);
  });

  it.each([
    ["the path is a directory", async () => void (await mkdir(join(root, "lathe.db")))],
    ["a parent is a file", async () => void (await writeFile(join(root, "blocker"), "x"))],
  ])("names the path when it cannot open it (%s)", async (_, arrange) => {
    await arrange();
    const path = existsSync(join(root, "blocker")) ? join(root, "blocker", "lathe.db") : join(root, "lathe.db");
    const error = catching(() => new SqliteStorage(path));
    expect(error).toBeInstanceOf(StorageOpenError);
    expect(error).toMatchObject({ location: path });
    expect((error as Error).message).toContain(path);
  });

  it("reports parts whose message is not stored when it opens, and leaves them", async () => {
    const path = join(root, "lathe.db");
    const session = makeSession();
    const message = makeUserMessage(session.id);
    const first = new SqliteStorage(path);
    await first.write({ sessions: [session], parts: [makeTextPart(session.id, message.id), makeTextPart(session.id, message.id)] });
    await first.close();
    const reported: CorruptRecordError[] = [];
    const storage = new SqliteStorage(path, { onCorrupt: (e) => reported.push(e) });
    expect(reported).toHaveLength(1);
    expect(reported[0]).toMatchObject({ table: "part", key: `${session.id}/${message.id}`, path });
    expect(reported[0]!.message).toContain("2 part(s)");
    await storage.write({ messages: [message] });
    expect((await storage.listMessages(session.id))[0]?.parts).toHaveLength(2);
    await storage.close();
  });
});

describe("FileStorage", () => {
  it("removes temp files and directories of dead processes when it opens, keeping a live process's", async () => {
    const session = makeSession();
    const message = makeUserMessage(session.id);
    const first = await FileStorage.open(root);
    await first.write({ sessions: [session], messages: [message], parts: [makeTextPart(session.id, message.id)] });
    await first.close();
    const sessionDir = join(root, "sessions", session.id);
    const parts = join(sessionDir, "messages", message.id, "parts");
    const dead = [
      join(sessionDir, `session.json.${DEAD_PID}-abcdef.tmp`),
      join(parts, `prt_x.json.${DEAD_PID}-0123ab.tmp`),
      join(root, "leases", `${session.id}.lock.${DEAD_PID}-99aa.tmp`),
      join(root, `meta.json.${DEAD_PID}-77.tmp`),
    ];
    for (const file of dead) await writeFile(file, "half written");
    const asideTree = join(root, "sessions", `ses_gone.${DEAD_PID}-1234.tmp`);
    await mkdir(join(asideTree, "messages"), { recursive: true });
    const live = join(parts, `prt_y.json.${process.ppid}-abcdef.tmp`);
    await writeFile(live, "being written");

    const storage = await FileStorage.open(root, { onCorrupt: () => {} });
    for (const file of [...dead, asideTree]) expect(existsSync(file), file).toBe(false);
    expect(existsSync(live)).toBe(true);
    expect((await storage.listMessages(session.id))[0]?.parts).toHaveLength(1);
  });

  it("reports parts whose message is not stored when it opens, and leaves them", async () => {
    const session = makeSession();
    const message = makeUserMessage(session.id);
    const first = await FileStorage.open(root);
    await first.write({ sessions: [session], parts: [makeTextPart(session.id, message.id)] });
    await first.close();
    const reported: CorruptRecordError[] = [];
    const storage = await FileStorage.open(root, { onCorrupt: (e) => reported.push(e) });
    expect(reported).toHaveLength(1);
    expect(reported[0]).toBeInstanceOf(CorruptRecordError);
    expect(reported[0]!.location).toContain(message.id);
    expect(await readdir(join(root, "sessions", session.id, "messages", message.id, "parts"))).toHaveLength(1);
    await storage.write({ messages: [message] });
    expect((await storage.listMessages(session.id))[0]?.parts).toHaveLength(1);
  });

  it("names the path when it cannot open the directory", async () => {
    const file = join(root, "not-a-dir");
    await writeFile(file, "x");
    const error = await FileStorage.open(join(file, "store")).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(StorageOpenError);
    expect((error as Error).message).toContain(join(file, "store"));
  });

  it("names the damaged file's path in the error of a read", async () => {
    const storage = await FileStorage.open(root, { onCorrupt: () => {} });
    const session = makeSession();
    await storage.write({ sessions: [session] });
    const file = join(root, "sessions", session.id, "session.json");
    await writeFile(file, "{ torn");
    await expect(storage.getSession(session.id)).rejects.toMatchObject({ name: "CorruptRecordError", path: file });
    expect(await readFile(file, "utf8")).toBe("{ torn");
  });
});
