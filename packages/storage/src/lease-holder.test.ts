// The holder a lease records decides whether a stale-looking lease may be taken over before it
// expires: only a process on this host that no longer runs. Rows are written directly to stand for
// holders this test cannot start (another host, a process that is gone).
import { createId } from "@lathe/message";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FileStorage } from "./file-storage.js";
import { SqliteStorage } from "./sqlite-storage.js";
import type { Storage } from "./storage.js";

/** A pid no live process has (above Linux's default pid_max). */
const DEAD_PID = 4_194_305;

interface Holder {
  owner: string;
  expiresAt: number;
  host: string;
  pid: number;
}

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "lathe-lease-holder-"));
});
afterEach(() => rm(root, { recursive: true, force: true }));

const adapters: Array<{ name: string; open: () => Promise<Storage>; plant: (sessionID: string, holder: Holder) => Promise<void> }> = [
  {
    name: "SqliteStorage",
    open: async () => new SqliteStorage(join(root, "lathe.db")),
    async plant(sessionID, h) {
      const db = new (createRequire(import.meta.url)("node:sqlite") as typeof import("node:sqlite")).DatabaseSync(join(root, "lathe.db"));
      db.prepare("INSERT OR REPLACE INTO lease (session_id, owner, expires_at, host, pid) VALUES (?, ?, ?, ?, ?)").run(sessionID, h.owner, h.expiresAt, h.host, h.pid);
      db.close();
    },
  },
  {
    name: "FileStorage",
    open: () => FileStorage.open(join(root, "files")),
    plant: (sessionID, h) => writeFile(join(root, "files", "leases", `${sessionID}.json`), JSON.stringify(h)),
  },
];

describe.each(adapters)("$name lease holders", ({ open, plant }) => {
  it("takes over at once a lease whose holder on this host is gone", async () => {
    const storage = await open();
    const sessionID = createId("session");
    await plant(sessionID, { owner: "crashed", expiresAt: Date.now() + 60_000, host: hostname(), pid: DEAD_PID });
    expect(await storage.getLease!(sessionID)).toMatchObject({ owner: "crashed", pid: DEAD_PID, host: hostname() });
    expect(await storage.acquireLease(sessionID, "next", 60_000)).toMatchObject({ owner: "next", pid: process.pid, host: hostname() });
    await storage.close();
  });

  it("keeps out others while a holder on this host runs, and names it", async () => {
    const storage = await open();
    const sessionID = createId("session");
    const expiresAt = Date.now() + 60_000;
    await plant(sessionID, { owner: "parent", expiresAt, host: hostname(), pid: process.ppid });
    expect(await storage.acquireLease(sessionID, "next", 60_000)).toBeUndefined();
    expect(await storage.getLease!(sessionID)).toEqual({ sessionID, owner: "parent", expiresAt, host: hostname(), pid: process.ppid });
    await storage.close();
  });

  it("waits for the expiry of a holder on another host, whose process it cannot check", async () => {
    const storage = await open();
    const sessionID = createId("session");
    await plant(sessionID, { owner: "remote", expiresAt: Date.now() + 300, host: `not-${hostname()}`, pid: DEAD_PID });
    expect(await storage.acquireLease(sessionID, "next", 60_000)).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await storage.acquireLease(sessionID, "next", 60_000)).toMatchObject({ owner: "next" });
    await storage.close();
  });
});
