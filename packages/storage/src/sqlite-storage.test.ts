import { runStorageConformance } from "@lathe/storage/conformance";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SqliteStorage } from "./sqlite-storage.js";

let dir = "";

runStorageConformance("SqliteStorage", {
  create: async () => {
    dir = await mkdtemp(join(tmpdir(), "lathe-sqlite-storage-"));
    return new SqliteStorage(join(dir, "lathe.db"));
  },
  reopen: async () => new SqliteStorage(join(dir, "lathe.db")),
  cleanup: () => rm(dir, { recursive: true, force: true }),
});

runStorageConformance("SqliteStorage(:memory:)", { create: async () => new SqliteStorage(":memory:") });
