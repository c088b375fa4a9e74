import { describe, expect, it } from "vitest";
import { LruCache } from "./lru-cache.js";

describe("LruCache", () => {
  it("never holds more than its capacity", () => {
    const cache = new LruCache<number, number>(10);
    for (let i = 0; i < 1000; i++) {
      cache.set(i, i);
      expect(cache.size).toBeLessThanOrEqual(10);
    }
    expect(cache.get(999)).toBe(999);
    expect(cache.get(0)).toBeUndefined();
  });

  it("keeps entries that are used while others come and go", () => {
    const cache = new LruCache<string, number>(8);
    cache.set("hot", 1);
    for (let i = 0; i < 100; i++) {
      cache.set(`cold${i}`, i);
      expect(cache.get("hot")).toBe(1);
    }
  });

  it("rejects a useless capacity", () => {
    expect(() => new LruCache(1)).toThrow(RangeError);
    expect(() => new LruCache(2.5)).toThrow(RangeError);
  });
});
