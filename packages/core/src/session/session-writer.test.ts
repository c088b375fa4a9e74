import { describe, expect, it } from "vitest";
import { MemoryStorage, type WriteBatch } from "@lathe/storage";
import type { TextPart } from "@lathe/message";
import { SessionWriter } from "./session-writer.js";

class CountingStorage extends MemoryStorage {
  batches: WriteBatch[] = [];
  failNext = false;
  override async write(batch: WriteBatch): Promise<void> {
    if (this.failNext) {
      this.failNext = false;
      throw new Error("disk full");
    }
    this.batches.push(batch);
    return super.write(batch);
  }
}

const part = (): TextPart => ({ id: "prt_1", sessionID: "ses_1", messageID: "msg_1", type: "text", text: "" });

describe("SessionWriter", () => {
  it("coalesces 100,000 updates of a part into a handful of writes, storing the final state", async () => {
    const storage = new CountingStorage();
    const writer = new SessionWriter(storage, 50);
    const p = part();
    for (let i = 0; i < 100_000; i++) {
      p.text += "x";
      writer.part(p);
    }
    await writer.flush();
    expect(storage.batches.length).toBeLessThanOrEqual(3);
    const written = storage.batches.flatMap((b) => b.parts ?? []);
    expect((written.at(-1) as TextPart).text).toHaveLength(100_000);
  });

  it("writes a snapshot: later changes do not leak into a batch already taken", async () => {
    const storage = new CountingStorage();
    const writer = new SessionWriter(storage, 1000);
    const p = part();
    p.text = "first";
    writer.part(p);
    const flushed = writer.flush();
    p.text = "second";
    await flushed;
    expect((storage.batches[0]!.parts![0] as TextPart).text).toBe("first");
  });

  it("reports a failed background write on the next flush", async () => {
    const storage = new CountingStorage();
    const writer = new SessionWriter(storage, 1);
    storage.failNext = true;
    writer.part(part());
    await new Promise((r) => setTimeout(r, 20));
    await expect(writer.flush()).rejects.toThrow("disk full");
    // And recovers afterwards.
    writer.part(part());
    await expect(writer.flush()).resolves.toBeUndefined();
  });
});
