import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runStorageConformance } from "@lathe/storage/conformance";
import { ForwardingStorage } from "./forwarding-storage.js";
import { MemoryStorage } from "./memory-storage.js";
import { SqliteStorage } from "./sqlite-storage.js";

// A wrapper that changes nothing is the storage it wraps: the whole contract holds through it.
runStorageConformance("ForwardingStorage over SqliteStorage", {
  create: async () => new ForwardingStorage(new SqliteStorage(join(mkdtempSync(join(tmpdir(), "lathe-forwarding-")), "lathe.sqlite"))),
});

describe("ForwardingStorage", () => {
  it("offers the optional calls only when the wrapped storage has them", async () => {
    const memory = new ForwardingStorage(new MemoryStorage());
    expect(memory.getLease).toBeTypeOf("function");
    expect(memory.schemaVersion).toBeUndefined();
    const sqlite = new ForwardingStorage(new SqliteStorage(join(mkdtempSync(join(tmpdir(), "lathe-forwarding-")), "lathe.sqlite")));
    expect(await sqlite.schemaVersion!()).toBeGreaterThan(0);
    await sqlite.close();
  });
});
