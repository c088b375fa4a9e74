import { describe, expect, it } from "vitest";
import { whileBusy } from "./sqlite-busy.js";

const busy = () => Object.assign(new Error("database is locked"), { errcode: 5 });

describe("whileBusy", () => {
  it("opens again while SQLite answers busy (extended codes too), and returns what the open returned", () => {
    let tries = 0;
    const result = whileBusy(2_000, () => {
      tries++;
      if (tries === 1) throw busy();
      if (tries === 2) throw Object.assign(new Error("database is locked"), { errcode: 5 | (2 << 8) }); // SQLITE_BUSY_SNAPSHOT
      return "opened";
    });
    expect(result).toBe("opened");
    expect(tries).toBe(3);
  });

  it("gives up with the last error once the timeout has passed", () => {
    const start = Date.now();
    expect(() => whileBusy(60, () => { throw busy(); })).toThrow("database is locked");
    expect(Date.now() - start).toBeLessThan(1_000);
  });

  it("does not retry any other error", () => {
    let tries = 0;
    expect(() => whileBusy(2_000, () => { tries++; throw Object.assign(new Error("file is not a database"), { errcode: 26 }); })).toThrow("not a database");
    expect(tries).toBe(1);
  });
});
