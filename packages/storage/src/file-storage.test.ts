import { runStorageConformance, type CorruptRecord } from "@lathe/storage/conformance";
import { createId } from "@lathe/message";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeSession, makeTextPart, makeUserMessage } from "./conformance-fixtures.js";
import { FILE_STORAGE_SCHEMA_VERSION, FileStorage } from "./file-storage.js";

let dir = "";

/** Replaces a record's file, as a damaged disk or a hand edit would. */
export const corruptFileRecord: CorruptRecord = async (storage, record, text) => {
  const session = join((storage as FileStorage).dir, "sessions", record.sessionID);
  const file =
    record.kind === "session"
      ? join(session, "session.json")
      : record.kind === "message"
        ? join(session, "messages", record.messageID, "message.json")
        : join(session, "messages", record.messageID, "parts", `${record.partID}.json`);
  expect(existsSync(file)).toBe(true);
  await writeFile(file, text);
};

runStorageConformance("FileStorage", {
  create: async ({ onCorrupt }) => {
    dir = await mkdtemp(join(tmpdir(), "lathe-file-storage-"));
    return new FileStorage(dir, { onCorrupt });
  },
  corrupt: corruptFileRecord,
  reopen: async () => FileStorage.open(dir),
  cleanup: () => rm(dir, { recursive: true, force: true }),
});

/** Every file below `root`, relative, sorted. */
async function tree(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(root.length + 1))
    .sort();
}

describe("FileStorage on disk", () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), "lathe-files-"));
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  it("lays records out one JSON file each, by session, message and part, with no temp files left", async () => {
    const storage = await FileStorage.open(root);
    const session = makeSession();
    const message = makeUserMessage(session.id);
    const part = makeTextPart(session.id, message.id);
    await storage.write({ sessions: [session], messages: [message], parts: [part] });
    await storage.acquireLease(session.id, "me", 60_000);
    const s = `sessions/${session.id}`;
    const m = `${s}/messages/${message.id}`;
    expect(await tree(root)).toEqual(
      [`leases/${session.id}.json`, "meta.json", `${m}/message.json`, `${m}/parts/${part.id}.json`, `${s}/session.json`].sort(),
    );
    expect(JSON.parse(await readFile(join(root, "meta.json"), "utf8"))).toEqual({ schemaVersion: FILE_STORAGE_SCHEMA_VERSION });
    expect(JSON.parse(await readFile(join(root, m, "parts", `${part.id}.json`), "utf8"))).toEqual(part);
    await storage.close();
  });

  it("ignores temp files a crash left behind, whole or torn", async () => {
    const storage = await FileStorage.open(root);
    const session = makeSession();
    const message = makeUserMessage(session.id);
    const part = makeTextPart(session.id, message.id);
    await storage.write({ sessions: [session], messages: [message], parts: [part] });
    const partDir = join(root, "sessions", session.id, "messages", message.id, "parts");
    // What a process killed mid-write leaves: a half-written temp file beside the real one.
    await writeFile(join(partDir, `${createId("part")}.json.123-abc.tmp`), '{"id":"prt_torn","type":"te');
    await writeFile(join(partDir, `${part.id}.json.123-def.tmp`), '{"torn');
    // A session directory moved aside by an interrupted removal.
    const ghost = makeSession();
    await mkdir(join(root, "sessions", `${ghost.id}.123-aaa.tmp`), { recursive: true });
    await writeFile(join(root, "sessions", `${ghost.id}.123-aaa.tmp`, "session.json"), JSON.stringify(ghost));

    const again = await FileStorage.open(root);
    expect(await again.listMessages(session.id)).toEqual([{ info: message, parts: [part] }]);
    expect((await again.listSessions()).sessions).toEqual([session]);
    await again.close();
    await storage.close();
  });

  it("refuses a directory written by a newer version, and a damaged meta.json", async () => {
    await writeFile(join(root, "meta.json"), JSON.stringify({ schemaVersion: 99 }));
    await expect(FileStorage.open(root)).rejects.toMatchObject({ name: "StorageVersionError", found: 99, supported: FILE_STORAGE_SCHEMA_VERSION });
    const storage = new FileStorage(root);
    await expect(storage.listSessions()).rejects.toMatchObject({ name: "StorageVersionError" });
    await expect(storage.write({ sessions: [makeSession()] })).rejects.toMatchObject({ name: "StorageVersionError" });
    expect(existsSync(join(root, "sessions"))).toBe(false);

    await writeFile(join(root, "meta.json"), "{ torn");
    await expect(FileStorage.open(root)).rejects.toMatchObject({ name: "CorruptRecordError" });
    await writeFile(join(root, "meta.json"), JSON.stringify({ schemaVersion: "one" }));
    await expect(FileStorage.open(root)).rejects.toMatchObject({ name: "CorruptRecordError" });
  });

  it("creates the directory and migrates a store without meta.json (version 0)", async () => {
    const nested = join(root, "a", "b");
    const storage = await FileStorage.open(nested);
    expect(await storage.schemaVersion()).toBe(FILE_STORAGE_SCHEMA_VERSION);
    expect(existsSync(join(nested, "sessions"))).toBe(true);
    expect(existsSync(join(nested, "leases"))).toBe(true);
  });

  it("rejects ids that cannot be file names, storing nothing, and finds nothing under them", async () => {
    const storage = await FileStorage.open(root);
    const good = makeSession();
    for (const id of ["../escape", "a/b", ".hidden", "", "x.tmp"]) {
      await expect(storage.write({ sessions: [good, makeSession({ id })] })).rejects.toMatchObject({ name: "InvalidIdError", id });
      await expect(storage.acquireLease(id, "me", 1_000)).rejects.toMatchObject({ name: "InvalidIdError" });
      expect(await storage.getSession(id)).toBeUndefined();
      expect(await storage.listMessages(id)).toEqual([]);
      expect(await storage.getMessage(good.id, id)).toBeUndefined();
    }
    expect((await storage.listSessions()).sessions).toEqual([]);
    expect(existsSync(join(root, "escape"))).toBe(false);
  });

  it("breaks a lease lock left by a process that died while holding it", async () => {
    const storage = await FileStorage.open(root);
    const sessionID = createId("session");
    // pid 2^22+1 is above Linux's pid_max default, so no live process has it.
    await writeFile(join(root, "leases", `${sessionID}.lock`), JSON.stringify({ pid: 4_194_305, nonce: "dead", time: Date.now() }));
    const started = Date.now();
    expect(await storage.acquireLease(sessionID, "me", 60_000)).toMatchObject({ owner: "me" });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(existsSync(join(root, "leases", `${sessionID}.lock`))).toBe(false);
  });

  it("breaks a damaged lease lock", async () => {
    const storage = await FileStorage.open(root);
    const sessionID = createId("session");
    await writeFile(join(root, "leases", `${sessionID}.lock`), "garbage");
    expect(await storage.acquireLease(sessionID, "me", 60_000)).toMatchObject({ owner: "me" });
  });

  it("lets two instances (as two processes would) exclude each other through the lease files", async () => {
    const [a, b] = [await FileStorage.open(root), await FileStorage.open(root)];
    const sessionID = createId("session");
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => (i % 2 ? a : b).acquireLease(sessionID, `owner-${i}`, 60_000)));
    expect(results.filter((r) => r !== undefined)).toHaveLength(1);
  });
});
