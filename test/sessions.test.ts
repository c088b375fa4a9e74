import { describe, expect, it } from "vitest";
import { createAgent, InvalidInputError, SessionBusyError, SessionNotFoundError } from "@lathe/core";
import { mockModel } from "@lathe/mock";
import { MemoryStorage } from "@lathe/storage";
import { Message, Part, toModelMessages } from "@lathe/message";
import { echoTool } from "./helpers.js";

describe("sessions", () => {
  it("create, get, list with paging, remove", async () => {
    const agent = createAgent({ model: mockModel([]) });
    const a = await agent.sessions.create({ title: "a" });
    const b = await agent.sessions.create({ title: "b" });
    const c = await agent.sessions.create({ title: "c", parentID: a.id });
    expect((await agent.sessions.get(a.id))?.title).toBe("a");
    const first = await agent.sessions.list({ limit: 2 });
    expect(first.sessions.map((s) => s.id)).toEqual([a.id, b.id]);
    const second = await agent.sessions.list({ limit: 2, cursor: first.cursor });
    expect(second.sessions.map((s) => s.id)).toEqual([c.id]);
    expect((await agent.sessions.list({ parentID: a.id })).sessions.map((s) => s.id)).toEqual([c.id]);
    await agent.sessions.remove(b.id);
    expect(await agent.sessions.get(b.id)).toBeUndefined();
    await expect(agent.sessions.remove(b.id)).rejects.toBeInstanceOf(SessionNotFoundError);
  });

  it("a prompt on an unknown session rejects with SessionNotFoundError", async () => {
    const agent = createAgent({ model: mockModel([{ text: "x" }]) });
    await expect(agent.prompt("ses_missing", "hi")).rejects.toBeInstanceOf(SessionNotFoundError);
    expect(agent.isBusy("ses_missing")).toBe(false);
  });

  it("rejects an empty prompt and bad options up front", async () => {
    const agent = createAgent({ model: mockModel([]) });
    const s = await agent.sessions.create();
    expect(() => agent.prompt(s.id, "  ")).toThrow(InvalidInputError);
    expect(() => createAgent({ model: mockModel([]), maxSteps: 0 })).toThrow(InvalidInputError);
    expect(() => createAgent({ model: mockModel([]), tools: [echoTool(), echoTool()] })).toThrow(/Two tools/);
  });

  it("a busy session cannot be removed or forked", async () => {
    const agent = createAgent({ model: mockModel([{ text: "x".repeat(100) }], { delayMs: 2 }) });
    const s = await agent.sessions.create();
    const run = agent.prompt(s.id, "go");
    await expect(agent.sessions.remove(s.id)).rejects.toBeInstanceOf(SessionBusyError);
    await expect(agent.sessions.fork(s.id)).rejects.toBeInstanceOf(SessionBusyError);
    await run;
  });

  it("forks the history up to a message with new ids and the parent set", async () => {
    const model = mockModel([
      { toolCalls: [{ name: "echo", input: { text: "one" } }] },
      { text: "first answer" },
      { text: "second answer" },
      { text: "fork answer" },
    ]);
    const agent = createAgent({ model, tools: [echoTool()] });
    const s = await agent.sessions.create({ title: "src" });
    await agent.prompt(s.id, "first");
    await agent.prompt(s.id, "second");
    const history = await agent.sessions.messages(s.id);
    expect(history).toHaveLength(4);
    const fork = await agent.sessions.fork(s.id, { messageID: history[1]!.info.id });
    expect(fork.parentID).toBe(s.id);
    const copied = await agent.sessions.messages(fork.id);
    expect(copied).toHaveLength(2);
    for (const m of copied) {
      expect(Message.parse(m.info).sessionID).toBe(fork.id);
      for (const p of m.parts) expect(Part.parse(p).messageID).toBe(m.info.id);
    }
    expect(copied.map((m) => m.info.id)).not.toContain(history[0]!.info.id);
    const assistant = copied[1]!.info;
    expect(assistant.role === "assistant" && assistant.parentID).toBe(copied[0]!.info.id);
    expect(toModelMessages(copied)).toEqual(toModelMessages(history.slice(0, 2)));
    expect(fork.usage.tokens).toEqual(history[1]!.info.role === "assistant" ? history[1]!.info.tokens : undefined);
    expect(fork.usage.steps).toBe(2); // the tool call's step and the answer's
    // The fork takes prompts of its own; the source is unchanged.
    const { info } = await agent.prompt(fork.id, "from the fork");
    expect(info.finish).toBe("stop");
    expect(await agent.sessions.messages(s.id)).toHaveLength(4);
    await expect(agent.sessions.fork(s.id, { messageID: "msg_nope" })).rejects.toBeInstanceOf(InvalidInputError);
  });

  it("repairs a turn a dead process left unfinished, and the next prompt continues cleanly", async () => {
    const storage = new MemoryStorage();
    const model = mockModel([{ text: "after restart" }]);
    const agent = createAgent({ model, storage });
    const s = await agent.sessions.create();
    // What a process killed mid-tool leaves behind: an assistant message never completed, a running tool.
    await storage.write({
      messages: [
        { id: "msg_0001", sessionID: s.id, role: "user", time: { created: 1 }, agent: "build" },
        {
          id: "msg_0002", sessionID: s.id, role: "assistant", parentID: "msg_0001", time: { created: 2 },
          providerID: "mock", modelID: "mock-model", agent: "build", cwd: "/", cost: 0,
          tokens: { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } },
        },
      ],
      parts: [
        { id: "prt_0001", sessionID: s.id, messageID: "msg_0001", type: "text", text: "do it" },
        { id: "prt_0002", sessionID: s.id, messageID: "msg_0002", type: "tool", callID: "c1", tool: "echo", state: { status: "running", input: { text: "x" }, time: { start: 2 } } },
      ],
    });
    const { info } = await agent.prompt(s.id, "continue");
    expect(info.finish).toBe("stop");
    const history = await agent.sessions.messages(s.id);
    expect(history[1]!.info).toMatchObject({ finish: "aborted", time: { completed: expect.any(Number) } });
    expect(history[1]!.parts[0]).toMatchObject({ state: { status: "error", error: "[Tool execution was interrupted]" } });
    // The model saw a result for the interrupted call.
    expect(JSON.stringify(model.calls[0]!.prompt)).toContain("interrupted");
  });
});
