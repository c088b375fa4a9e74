/**
 * Lathe's storage contract and its adapters. The conformance suite that checks an adapter against the
 * contract is exported from `@lathe/storage/conformance`.
 *
 * @module @lathe/storage
 */
export type { Storage, WriteBatch, SessionQuery, SessionPage, Lease } from "./storage.js";
export { MemoryStorage } from "./memory-storage.js";
