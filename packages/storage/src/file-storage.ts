import type { Message, MessageWithParts, Part, Session } from "@lathe/message";
import { mkdir } from "node:fs/promises";
import { join, resolve } from "node:path";
import {
  ensureDir,
  listEntries,
  listJsonNames,
  mapLimit,
  readJson,
  removeTree,
  syncDir,
  writeFileAtomic,
} from "./atomic-file.js";
import { CorruptRecordError, InvalidIdError, StorageOpenError, StorageVersionError, warnCorruptRecord, type CorruptRecordHandler } from "./errors.js";
import { FileLeases } from "./file-lease.js";
import { checkFileStore } from "./file-store-check.js";
import { latestVersion, pendingMigrations, type Migration } from "./migrations.js";
import { ReadWriteLock } from "./read-write-lock.js";
import { matchesQuery, pageLimit } from "./session-query.js";
import type { Lease, SessionPage, SessionQuery, Storage } from "./storage.js";
import { checkStoredRecord } from "./stored-record.js";
import { validateBatch, type ValidBatch, type WriteBatch } from "./write-batch.js";

/** How many files a batch writes or reads at once. */
const PARALLEL_FILES = 32;

const SAFE_ID = /^[A-Za-z0-9_-][A-Za-z0-9_.-]*$/;
const isSafeId = (id: string) => SAFE_ID.test(id) && !id.endsWith(".tmp") && !id.endsWith(".json") && !id.endsWith(".lock");

function checkId(id: string): string {
  if (!isSafeId(id)) throw new InvalidIdError(id);
  return id;
}

/** The steps of the directory layout; each must be safe to run twice (two processes may open at once). */
const MIGRATIONS: Array<Migration<string>> = [
  {
    version: 1,
    description: "sessions/ and leases/ directories",
    async up(dir) {
      await mkdir(join(dir, "sessions"), { recursive: true });
      await mkdir(join(dir, "leases"), { recursive: true });
    },
  },
];

/** Options of {@link FileStorage}. */
export interface FileStorageOptions {
  /**
   * Called for each damaged file a read skips (a session in `listSessions`, a message or part in
   * `listMessages`/`getMessage`) and, on open, for parts whose message is not stored. Damaged files
   * are never rewritten. Default: a process warning.
   */
  onCorrupt?: CorruptRecordHandler;
}

/** The schema version {@link FileStorage} writes; kept in `meta.json` as `{ "schemaVersion": n }`. */
export const FILE_STORAGE_SCHEMA_VERSION = latestVersion(MIGRATIONS);

/**
 * Keeps sessions as JSON files under `dir`, one file per record:
 *
 * ```text
 * meta.json                                    { "schemaVersion": 1 }
 * sessions/<sessionID>/session.json
 * sessions/<sessionID>/messages/<messageID>/message.json
 * sessions/<sessionID>/messages/<messageID>/parts/<partID>.json
 * leases/<sessionID>.json                      { "owner", "expiresAt", "host", "pid" }  (+ <sessionID>.lock while changed)
 * ```
 *
 * Every file is written to a temp file, fsynced and renamed over the old one, and the directory is
 * fsynced, so a crash never leaves a torn file; readers skip leftover `*.tmp` files, and opening
 * removes those of processes that are gone. Lists come in id order from the file names, and reading
 * a message loads only its own parts. A damaged file is reported (`onCorrupt`) and left out of lists;
 * reading it alone throws {@link CorruptRecordError} with its path.
 *
 * Within one instance a batch is atomic for readers (a read-write lock). A crash part-way through a
 * batch may leave part of it stored; the batch's parts are written before its messages and those
 * before its sessions, so a message is never stored as finished ahead of its parts. Use one
 * instance per directory in a process; leases exclude other processes.
 */
export class FileStorage implements Storage {
  /** The directory the store lives in (absolute). */
  readonly dir: string;
  private readonly lock = new ReadWriteLock();
  private readonly leases: FileLeases;
  private readonly ready: Promise<number>;
  private readonly onCorrupt: CorruptRecordHandler;
  private closed = false;

  /**
   * Opens (creating it and its parents, or migrating it, as needed) the store in `dir`. Errors
   * surface on first use.
   */
  constructor(dir: string, options: FileStorageOptions = {}) {
    this.dir = resolve(dir);
    this.onCorrupt = options.onCorrupt ?? warnCorruptRecord;
    this.leases = new FileLeases(join(this.dir, "leases"));
    this.ready = this.migrate().catch((error: unknown) => {
      if (error instanceof StorageVersionError || error instanceof CorruptRecordError) throw error;
      throw new StorageOpenError(this.dir, error);
    });
    this.ready.catch(() => {}); // reported by every call that awaits it
  }

  /** Opens the store in `dir` and waits until it is ready, so a migration error throws here. */
  static async open(dir: string, options: FileStorageOptions = {}): Promise<FileStorage> {
    const storage = new FileStorage(dir, options);
    await storage.ready;
    return storage;
  }

  async schemaVersion(): Promise<number> {
    return this.ready;
  }

  async write(input: WriteBatch): Promise<void> {
    const batch = validateBatch(input);
    for (const r of [...batch.sessions, ...batch.messages, ...batch.parts]) checkId(r.id);
    for (const r of [...batch.messages, ...batch.parts]) checkId(r.sessionID);
    for (const r of batch.parts) checkId(r.messageID);
    await this.ready;
    await this.lock.write(() => this.apply(batch));
  }

  async getSession(sessionID: string): Promise<Session | undefined> {
    if (!isSafeId(sessionID)) return undefined;
    await this.ready;
    return this.lock.read(() => this.readSession(sessionID));
  }

  async listSessions(query: SessionQuery = {}): Promise<SessionPage> {
    await this.ready;
    const limit = pageLimit(query);
    const after = query.cursor;
    return this.lock.read(async () => {
      const names = (await listEntries(join(this.dir, "sessions"))).filter((n) => after === undefined || n > after);
      const sessions: Session[] = [];
      // Read in slices: a plain listing stops after limit + 1 files, a filtered one reads on.
      for (let i = 0; i < names.length && sessions.length <= limit; i += PARALLEL_FILES) {
        const slice = await mapLimit(names.slice(i, i + PARALLEL_FILES), PARALLEL_FILES, (n) => this.intact(() => this.readSession(n)));
        for (const s of slice) if (s && matchesQuery(s, query)) sessions.push(s);
      }
      const page = sessions.slice(0, limit);
      const last = page[page.length - 1];
      return sessions.length > limit && last ? { sessions: page, cursor: last.id } : { sessions: page };
    });
  }

  async removeSession(sessionID: string): Promise<void> {
    if (!isSafeId(sessionID)) return;
    await this.ready;
    await this.lock.write(async () => {
      await removeTree(this.sessionDir(sessionID));
      await this.leases.remove(sessionID);
    });
  }

  async getMessage(sessionID: string, messageID: string): Promise<MessageWithParts | undefined> {
    if (!isSafeId(sessionID) || !isSafeId(messageID)) return undefined;
    await this.ready;
    return this.lock.read(() => this.readMessage(sessionID, messageID));
  }

  async listMessages(sessionID: string): Promise<MessageWithParts[]> {
    if (!isSafeId(sessionID)) return [];
    await this.ready;
    return this.lock.read(async () => {
      const names = await listEntries(join(this.sessionDir(sessionID), "messages"));
      const messages = await mapLimit(names, 4, (id) => this.intact(() => this.readMessage(sessionID, id)));
      return messages.filter((m): m is MessageWithParts => m !== undefined);
    });
  }

  async acquireLease(sessionID: string, owner: string, ttlMs: number): Promise<Lease | undefined> {
    await this.ready;
    return this.leases.acquire(checkId(sessionID), owner, ttlMs);
  }

  async getLease(sessionID: string): Promise<Lease | undefined> {
    if (!isSafeId(sessionID)) return undefined;
    await this.ready;
    return this.leases.get(sessionID);
  }

  async renewLease(sessionID: string, owner: string, ttlMs: number): Promise<Lease | undefined> {
    await this.ready;
    return this.leases.renew(checkId(sessionID), owner, ttlMs);
  }

  async releaseLease(sessionID: string, owner: string): Promise<void> {
    await this.ready;
    await this.leases.release(checkId(sessionID), owner);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // Let writes already started finish, so close() means "everything written is on disk".
    await this.lock.write(async () => {}).catch(() => {});
  }

  private sessionDir(sessionID: string): string {
    return join(this.dir, "sessions", sessionID);
  }

  private messageDir(sessionID: string, messageID: string): string {
    return join(this.sessionDir(sessionID), "messages", messageID);
  }

  /** A record file's content, checked to be a record of `key`; undefined when the file is gone. */
  private async readRecord<T>(path: string, key: { id: string; sessionID?: string; messageID?: string }): Promise<T | undefined> {
    const value = await readJson(path);
    return value === undefined ? undefined : checkStoredRecord<T>(value, key, { path, key: [key.sessionID, key.messageID, key.id].filter(Boolean).join("/") });
  }

  /** `read()`, or undefined (reported to `onCorrupt`) when what it reads is damaged. */
  private async intact<T>(read: () => Promise<T | undefined>): Promise<T | undefined> {
    try {
      return await read();
    } catch (error) {
      if (!(error instanceof CorruptRecordError)) throw error;
      this.onCorrupt(error);
      return undefined;
    }
  }

  private async readSession(sessionID: string): Promise<Session | undefined> {
    return this.readRecord<Session>(join(this.sessionDir(sessionID), "session.json"), { id: sessionID });
  }

  private async readMessage(sessionID: string, messageID: string): Promise<MessageWithParts | undefined> {
    const dir = this.messageDir(sessionID, messageID);
    const info = await this.readRecord<Message>(join(dir, "message.json"), { id: messageID, sessionID });
    if (!info) return undefined;
    const partDir = join(dir, "parts");
    const names = await listJsonNames(partDir);
    const parts = await mapLimit(names, PARALLEL_FILES, (id) =>
      this.intact(() => this.readRecord<Part>(join(partDir, `${id}.json`), { id, sessionID, messageID })),
    );
    // A part removed between the listing and its read is simply gone; a damaged one was reported.
    return { info, parts: parts.filter((p) => p !== undefined) };
  }

  private async apply(batch: ValidBatch): Promise<void> {
    const dirty = new Set<string>();
    const put = async (dir: string, file: string, record: unknown) => {
      for (const changed of await ensureDir(dir)) dirty.add(changed);
      await writeFileAtomic(join(dir, file), JSON.stringify(record));
      dirty.add(dir);
    };
    // Parts, then messages, then sessions: what a crash cuts short is the tail of that order.
    await mapLimit(batch.parts, PARALLEL_FILES, (p) => put(join(this.messageDir(p.sessionID, p.messageID), "parts"), `${p.id}.json`, p));
    await mapLimit(batch.messages, PARALLEL_FILES, (m) => put(this.messageDir(m.sessionID, m.id), "message.json", m));
    await mapLimit(batch.sessions, PARALLEL_FILES, (s) => put(this.sessionDir(s.id), "session.json", s));
    await mapLimit([...dirty], PARALLEL_FILES, syncDir);

    for (const { sessionID, messageID } of batch.removeMessages) {
      if (isSafeId(sessionID) && isSafeId(messageID)) await removeTree(this.messageDir(sessionID, messageID));
    }
    await mapLimit(batch.removeParts, PARALLEL_FILES, async ({ sessionID, messageID, partID }) => {
      if (isSafeId(sessionID) && isSafeId(messageID) && isSafeId(partID)) {
        await removeTree(join(this.messageDir(sessionID, messageID), "parts", `${partID}.json`));
      }
    });
  }

  private async migrate(): Promise<number> {
    await mkdir(this.dir, { recursive: true });
    const metaPath = join(this.dir, "meta.json");
    const meta = (await readJson(metaPath)) as { schemaVersion?: unknown } | undefined;
    const current = meta === undefined ? 0 : meta.schemaVersion;
    if (typeof current !== "number" || !Number.isInteger(current) || current < 0) {
      throw new CorruptRecordError(metaPath, new Error(`schemaVersion ${JSON.stringify(current)} is not a whole number`));
    }
    const pending = pendingMigrations(this.dir, current, MIGRATIONS);
    for (const migration of pending) {
      await migration.up(this.dir);
      await writeFileAtomic(metaPath, JSON.stringify({ schemaVersion: migration.version }));
      await syncDir(this.dir);
    }
    await checkFileStore(this.dir, this.onCorrupt);
    return pending.at(-1)?.version ?? current;
  }
}
