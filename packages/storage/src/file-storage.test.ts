import { runStorageConformance } from "@lathe/storage/conformance";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FileStorage } from "./file-storage.js";

let dir = "";

runStorageConformance("FileStorage", {
  create: async () => {
    dir = await mkdtemp(join(tmpdir(), "lathe-file-storage-"));
    return new FileStorage(dir);
  },
  reopen: async () => FileStorage.open(dir),
  cleanup: () => rm(dir, { recursive: true, force: true }),
});
