/**
 * A bounded cache with least-recently-used-style eviction, so caches keyed by user input (patterns,
 * permission names) cannot grow without bound. Two generations instead of exact LRU order: a hit is
 * a plain `Map.get` (exact LRU would delete and re-insert on every hit, which costs more than the
 * lookups it saves); when the young generation fills half the capacity it becomes the old one and
 * the previous old one is dropped. Entries used in either of the last two generations survive.
 */
export class LruCache<K, V> {
  #young = new Map<K, V>();
  #old = new Map<K, V>();
  readonly #half: number;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 2) throw new RangeError(`cache capacity must be an integer ≥ 2, got ${capacity}`);
    this.#half = Math.floor(capacity / 2);
  }

  /** Entries held now (never more than the capacity). */
  get size(): number {
    return this.#young.size + this.#old.size;
  }

  get(key: K): V | undefined {
    const value = this.#young.get(key);
    if (value !== undefined) return value;
    const old = this.#old.get(key);
    if (old !== undefined) {
      this.#old.delete(key);
      this.set(key, old); // promote: it was used again
    }
    return old;
  }

  set(key: K, value: V): void {
    this.#old.delete(key);
    this.#young.set(key, value);
    if (this.#young.size >= this.#half) {
      this.#old = this.#young;
      this.#young = new Map();
    }
  }
}
