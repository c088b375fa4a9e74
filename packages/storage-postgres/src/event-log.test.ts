import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PostgresEventLog } from "./event-log.js";
import { startTestPostgres, type TestPostgres } from "./test-server.js";

describe("PostgresEventLog", () => {
  let server: TestPostgres;
  let schemas = 0;
  const logs: PostgresEventLog[] = [];
  const open = (schema = `events_${++schemas}`) => {
    const log = new PostgresEventLog({ connectionString: server.connectionString, schema });
    logs.push(log);
    return log;
  };

  beforeAll(async () => {
    server = await startTestPostgres();
  });
  afterAll(async () => {
    await Promise.all(logs.map((l) => l.close()));
    await server?.stop();
  });

  async function take<E>(it: AsyncGenerator<{ seq: number; event: E }>, n: number) {
    const out: { seq: number; event: E }[] = [];
    for await (const item of it) {
      out.push(item);
      if (out.length === n) break;
    }
    return out;
  }

  it("numbers each session's events densely and reads them after a cursor", async () => {
    const log = open();
    expect(await log.append("s1", [{ n: 1 }, { n: 2 }])).toBe(2);
    expect(await log.append("s2", [{ n: 1 }])).toBe(1);
    expect(await log.append("s1", [{ n: 3 }])).toBe(3);
    expect((await log.read("s1", 1)).map((e) => e.seq)).toEqual([2, 3]);
    expect(await log.last("s2")).toBe(1);
    expect(await log.last("nothing")).toBe(0);
  });

  it("delivers events appended by another connection to a subscriber, once and in order, big ones included", async () => {
    const schema = `events_${++schemas}`;
    const writer = open(schema);
    const reader = open(schema);
    await writer.append("s", [{ n: 1 }]);
    const big = "x".repeat(20_000); // past NOTIFY's 8000-byte payload: stored and read back
    const sub = reader.subscribe<{ n: number; pad?: string }>("s");
    const got = take(sub, 5);
    await new Promise((r) => setTimeout(r, 100));
    await writer.append("s", [{ n: 2 }]);
    await writer.append("s", [{ n: 3, pad: big }]);
    await writer.append("s", [{ n: 4 }, { n: 5 }]);
    const events = await got;
    expect(events.map((e) => e.event.n)).toEqual([1, 2, 3, 4, 5]);
    expect(events.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(events[2]!.event.pad).toBe(big);
  });

  it("resumes from a cursor without gaps or repeats, and ends on abort", async () => {
    const schema = `events_${++schemas}`;
    const writer = open(schema);
    const reader = open(schema);
    for (let i = 1; i <= 6; i++) await writer.append("s", [{ n: i }]);
    const first = await take(reader.subscribe<{ n: number }>("s"), 3);
    const cursor = first.at(-1)!.seq;
    const controller = new AbortController();
    const rest: number[] = [];
    const done = (async () => {
      for await (const item of reader.subscribe<{ n: number }>("s", { after: cursor, signal: controller.signal })) rest.push(item.event.n);
    })();
    await writer.append("s", [{ n: 7 }]);
    await new Promise((r) => setTimeout(r, 200));
    controller.abort();
    await done;
    expect([...first.map((e) => e.event.n), ...rest]).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });
});
