import { runStorageConformance } from "@lathe/storage/conformance";
import { MemoryStorage } from "./memory-storage.js";

runStorageConformance("MemoryStorage", { create: async () => new MemoryStorage() });
