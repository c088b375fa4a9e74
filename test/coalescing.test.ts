import { describe, expect, it } from "vitest";
import { createAgent } from "@lathe/core";
import { mockModel } from "@lathe/mock";
import { MemoryStorage, type WriteBatch } from "@lathe/storage";
import { echoTool } from "./helpers.js";

class CountingStorage extends MemoryStorage {
  writes = 0;
  partWrites = new Map<string, number>();
  override async write(batch: WriteBatch): Promise<void> {
    this.writes++;
    for (const part of batch.parts ?? []) this.partWrites.set(part.id, (this.partWrites.get(part.id) ?? 0) + 1);
    return super.write(batch);
  }
}

describe("coalesced streaming writes", () => {
  it("a 100,000-delta answer costs a handful of writes, and the final text is stored", async () => {
    const storage = new CountingStorage();
    const text = "0123456789".repeat(10_000);
    const agent = createAgent({ model: mockModel([{ text }], { chunkSize: 1 }), storage, flushIntervalMs: 250 });
    const session = await agent.sessions.create();
    let deltas = 0;
    agent.on("message.part.updated", (e) => {
      if (e.delta) deltas++;
    });
    const { parts } = await agent.prompt(session.id, "a long answer");
    expect(deltas).toBe(100_000);
    const textPart = parts.find((p) => p.type === "text")!;
    expect(storage.partWrites.get(textPart.id)).toBeLessThanOrEqual(20);
    const stored = await storage.listMessages(session.id);
    const storedText = stored[1]!.parts.find((p) => p.type === "text");
    expect(storedText?.type === "text" && storedText.text).toBe(text);
  });

  it("a step's final part states are stored before the next step starts", async () => {
    const storage = new MemoryStorage();
    let seenAtStep2: unknown;
    const model = mockModel([
      { text: "first", toolCalls: [{ name: "echo", input: { text: "x" } }] },
      async () => {
        const stored = await storage.listMessages(sessionID);
        seenAtStep2 = stored[1]?.parts.map((p) => (p.type === "tool" ? p.state.status : p.type));
        return { text: "second" };
      },
    ]);
    const agent = createAgent({ model, storage, tools: [echoTool()], flushIntervalMs: 60_000 });
    const sessionID = (await agent.sessions.create()).id;
    await agent.prompt(sessionID, "go");
    expect(seenAtStep2).toEqual(["step-start", "text", "completed", "step-finish"]);
  });
});
