import { describe, expect, it } from "vitest";
import { runStorageConformance } from "@lathe/storage/conformance";
import { makeEveryPart, makeSession, makeUserMessage } from "./conformance-fixtures.js";
import { MemoryStorage } from "./memory-storage.js";

runStorageConformance("MemoryStorage", { create: async () => new MemoryStorage() });

describe("MemoryStorage hands out what it stores without copying", () => {
  it("reads return the same frozen records each time; a change throws and stores nothing", async () => {
    const storage = new MemoryStorage();
    const session = makeSession();
    const message = makeUserMessage(session.id);
    const parts = makeEveryPart(session.id, message.id);
    await storage.write({ sessions: [session], messages: [message], parts });
    const [first] = await storage.listMessages(session.id);
    const [second] = await storage.listMessages(session.id);
    expect(second!.info).toBe(first!.info);
    for (const [i, part] of first!.parts.entries()) {
      expect(second!.parts[i]).toBe(part);
      expect(Object.isFrozen(part)).toBe(true);
    }
    expect((await storage.getMessage(session.id, message.id))!.parts[0]).toBe(first!.parts[0]);
    // Nested values are frozen too (a tool part's state and input).
    const tool = first!.parts.find((p) => p.type === "tool");
    expect(tool && Object.isFrozen(tool.state)).toBe(true);
    expect(() => {
      (first!.info as { agent: string }).agent = "changed";
    }).toThrow(TypeError);
    expect((await storage.listMessages(session.id))[0]!.info).toEqual(message);
    // What was written stays the caller's: changing it later reaches nothing stored.
    (message as { agent: string }).agent = "mine";
    expect((await storage.listMessages(session.id))[0]!.info.agent).not.toBe("mine");
    // Sessions come as copies the caller may change.
    const read = (await storage.getSession(session.id))!;
    read.title = "renamed";
    expect((await storage.getSession(session.id))!.title).toBe(session.title);
  });
});
