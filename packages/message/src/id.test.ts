import { describe, expect, it } from "vitest";
import { createId, IdGenerator, idTimestamp } from "./id.js";

describe("ids", () => {
  it("have the kind's prefix", () => {
    expect(createId("session")).toMatch(/^ses_[0-9a-f]{15}[0-9A-Za-z]{14}$/);
    expect(createId("message")).toMatch(/^msg_/);
    expect(createId("part")).toMatch(/^prt_/);
  });

  it("ascend even within one millisecond", () => {
    const ids = Array.from({ length: 10_000 }, () => createId("part"));
    const sorted = [...ids].sort();
    expect(sorted).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("ascend when the clock steps back", () => {
    const generator = new IdGenerator();
    const realNow = Date.now;
    try {
      Date.now = () => 2_000_000_000_000;
      const a = generator.next("part");
      Date.now = () => 1_000_000_000_000;
      const b = generator.next("part");
      expect(b > a).toBe(true);
    } finally {
      Date.now = realNow;
    }
  });

  it("encode their creation time", () => {
    const before = Date.now();
    const id = createId("message");
    expect(idTimestamp(id)).toBeGreaterThanOrEqual(before - 1);
    expect(idTimestamp(id)).toBeLessThanOrEqual(Date.now() + 5);
  });
});
