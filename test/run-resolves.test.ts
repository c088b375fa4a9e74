import { describe, expect, it } from "vitest";
import { createAgent } from "@lathe/core";
import { mockModel } from "@lathe/mock";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MemoryStorage, SqliteStorage, type WriteBatch } from "@lathe/storage";
import { echoTool } from "./helpers.js";

/** Tool input nested `depth` levels deep, as the model's raw JSON text: `{"a":{"a":…}}`. */
function deeplyNested(depth: number): string {
  return '{"a":'.repeat(depth) + '{"text":"bottom"}' + "}".repeat(depth);
}

/** Memory storage whose writes start failing after `okWrites` successful ones. */
class FailingStorage extends MemoryStorage {
  writes = 0;
  constructor(public okWrites: number) {
    super();
  }
  override async write(batch: WriteBatch): Promise<void> {
    if (++this.writes > this.okWrites) throw new Error("disk full");
    return super.write(batch);
  }
}

describe("a run always resolves", () => {
  for (const kind of ["memory", "sqlite"]) {
    it(`with tool input nested 100,000 levels deep (${kind} storage)`, async () => {
      const model = mockModel([{ toolCalls: [{ name: "echo", input: deeplyNested(100_000) }] }, { text: "done" }]);
      const storage = kind === "sqlite" ? new SqliteStorage(join(mkdtempSync(join(tmpdir(), "lathe-deep-")), "db.sqlite")) : new MemoryStorage();
      const agent = createAgent({ model, tools: [echoTool()], storage, snapshots: false });
      const session = await agent.sessions.create();
      const run = agent.prompt(session.id, "go");
      const events: string[] = [];
      for await (const event of run) events.push(event.type);
      const { info, parts } = await run;
      // The call is answered as invalid and the model goes on to its answer.
      expect(info.error).toBeUndefined();
      expect(info.finish).toBe("stop");
      const call = parts.find((p) => p.type === "tool");
      expect(call?.type === "tool" && call.state.status === "error" && call.state.error).toMatch(/nested more than \d+ levels/);
      expect(events.at(-1)).toBe("session.status");
      const stored = await agent.sessions.messages(session.id);
      expect(stored.at(-1)?.info.time).toMatchObject({ completed: expect.any(Number) });
      await storage.close();
    }, 60_000);
  }

  it("when storage writes start failing at any write of a turn", async () => {
    const script = () => [
      { text: "first ".repeat(50), toolCalls: [{ name: "echo", input: { text: "x" } }] },
      { text: "second ".repeat(50), toolCalls: [{ name: "echo", input: { text: "y" } }] },
      { text: "done" },
      { text: "recovered" },
    ];
    const turn = async (okWrites: number) => {
      const storage = new FailingStorage(Number.POSITIVE_INFINITY);
      const agent = createAgent({ model: mockModel(script(), { chunkSize: 5 }), tools: [echoTool()], storage, snapshots: false, flushIntervalMs: 1 });
      const session = await agent.sessions.create();
      const before = storage.writes;
      storage.okWrites = before + okWrites;
      const run = agent.prompt(session.id, "go");
      for await (const _ of run) void _;
      return { agent, storage, session, result: await run, writes: storage.writes - before };
    };
    // A healthy turn's writes, then a turn whose storage fails from each of them on.
    const healthy = await turn(Number.POSITIVE_INFINITY);
    expect(healthy.result.info.error).toBeUndefined();
    expect(healthy.writes).toBeGreaterThan(2);
    for (let okWrites = 1; okWrites < healthy.writes; okWrites++) {
      const { agent, storage, session, result } = await turn(okWrites);
      expect(result.info.role).toBe("assistant");
      expect(result.info.time.completed).toBeGreaterThan(0);
      expect(agent.isBusy(session.id)).toBe(false);
      expect(result.info.error?.message, `failing after ${okWrites} writes`).toMatch(/disk full/);
      // On healthy storage again, the next prompt repairs what was stored of the turn and goes on.
      storage.okWrites = Number.POSITIVE_INFINITY;
      const next = await agent.prompt(session.id, "again");
      expect(next.info.error).toBeUndefined();
      const stored = await agent.sessions.messages(session.id);
      for (const { info } of stored) if (info.role === "assistant") expect(info.time.completed).toBeDefined();
    }
  }, 60_000);
});
