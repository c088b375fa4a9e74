import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createAgent, InvalidInputError, NothingToResumeError, type AgentEvent } from "@lathe/core";
import { createId, emptyTokens, INTERRUPTED_TOOL_RESULT, type Part } from "@lathe/message";
import { mockModel } from "@lathe/mock";
import { MemoryStorage, type Storage, type WriteBatch } from "@lathe/storage";
import { defineTool } from "@lathe/tools";

/** Storage that stops writing once `die()` is called: what a killed process leaves behind. */
function mortal(storage: Storage): Storage & { die(): void } {
  let dead = false;
  return new Proxy(storage, {
    get(target, key, receiver) {
      if (key === "die") return () => (dead = true);
      if (key === "write") return (batch: WriteBatch) => (dead ? Promise.resolve() : target.write(batch));
      const value = Reflect.get(target, key, receiver) as unknown;
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  }) as Storage & { die(): void };
}

const hangTool = defineTool({
  name: "hang",
  description: "Never finishes (until aborted).",
  parameters: z.object({}),
  async execute(_input, ctx) {
    await new Promise((_, reject) => ctx.abort.addEventListener("abort", () => reject(ctx.abort.reason)));
    return { title: "", output: "", metadata: {} };
  },
});

const texts = (parts: Part[]) => parts.flatMap((p) => (p.type === "text" ? [p.text] : []));
const stepTokens = (parts: Part[]) => parts.reduce((sum, p) => sum + (p.type === "step-finish" ? p.tokens.input + p.tokens.output : 0), 0);

/** Stores a user message with no answer begun: what a process that died right after storing a prompt leaves. */
async function storePrompt(storage: Storage, sessionID: string, text: string, mode?: "plan"): Promise<string> {
  const id = createId("message");
  await storage.write({
    messages: [{ id, sessionID, role: "user", time: { created: Date.now() }, agent: "build", ...(mode ? { mode } : {}) }],
    parts: [{ id: createId("part"), sessionID, messageID: id, type: "text", text }],
  });
  return id;
}

describe("agent.resume() of a turn whose process died", () => {
  it("gives the running tool call an interrupted result and lets the model go on; the finished step is not repeated", async () => {
    const storage = new MemoryStorage();
    const first = mortal(storage);
    const dying = createAgent({
      model: mockModel([{ text: "Running it.", toolCalls: [{ name: "hang", input: {}, id: "call_1" }], usage: { input: 10, output: 5 } }]),
      storage: first,
      tools: [hangTool],
      flushIntervalMs: 5,
      leaseTtlMs: 200,
    });
    const session = await dying.sessions.create();
    const run = dying.prompt(session.id, "run it");
    for await (const event of run) {
      if (event.type === "message.part.updated" && event.part.type === "tool" && event.part.state.status === "running") break;
    }
    await new Promise((r) => setTimeout(r, 50)); // the running state is stored
    first.die();
    await run.abort();
    await run.catch(() => {});
    await new Promise((r) => setTimeout(r, 250)); // the dead process's lease lapses

    const model = mockModel([{ text: "It was interrupted; stopping here.", usage: { input: 20, output: 7 } }]);
    const agent = createAgent({ model, storage, tools: [hangTool] });
    const events: AgentEvent[] = [];
    const resumed = agent.resume(session.id);
    for await (const event of resumed) events.push(event);
    const { info, parts } = await resumed;
    expect(model.calls).toHaveLength(1);
    expect(info.finish).toBe("stop");
    expect(parts.find((p) => p.type === "tool")).toMatchObject({ callID: "call_1", state: { status: "error", error: INTERRUPTED_TOOL_RESULT } });
    expect(texts(parts)).toEqual(["Running it.", "It was interrupted; stopping here."]);
    const messages = await storage.listMessages(session.id);
    expect(messages.map((m) => m.info.role)).toEqual(["user", "assistant"]);
    const stored = await storage.getSession(session.id);
    expect(stored!.usage.tokens.input + stored!.usage.tokens.output).toBe(42);
    expect(stepTokens(messages[1]!.parts)).toBe(42);
    await expect(agent.resume(session.id)).rejects.toBeInstanceOf(NothingToResumeError);
  });

  it("drops the step that was streaming and requests it again", async () => {
    const storage = new MemoryStorage();
    const agent = createAgent({ model: mockModel([{ text: "The whole answer.", usage: { input: 3, output: 4 } }]), storage });
    const session = await agent.sessions.create();
    const userID = createId("message");
    const answerID = createId("message");
    const base = { sessionID: session.id };
    await storage.write({
      messages: [
        { id: userID, ...base, role: "user", time: { created: Date.now() }, agent: "build" },
        {
          id: answerID,
          ...base,
          role: "assistant",
          parentID: userID,
          time: { created: Date.now() },
          providerID: "mock",
          modelID: "mock",
          agent: "build",
          cwd: process.cwd(),
          tokens: emptyTokens(),
          cost: 0,
        },
      ],
      parts: [
        { id: createId("part"), ...base, messageID: userID, type: "text", text: "answer me" },
        { id: createId("part"), ...base, messageID: answerID, type: "step-start" },
        { id: createId("part"), ...base, messageID: answerID, type: "text", text: "The who", time: { start: Date.now() } },
      ],
    });
    const { info, parts } = await agent.resume(session.id);
    expect(info.id).toBe(answerID);
    expect(texts(parts)).toEqual(["The whole answer."]);
    expect(parts.filter((p) => p.type === "step-start")).toHaveLength(1);
    const stored = await storage.getMessage(session.id, answerID);
    expect(texts(stored!.parts)).toEqual(["The whole answer."]);
    expect((await storage.getSession(session.id))!.usage.tokens.output).toBe(4);
  });

  it("answers a prompt that was stored before its answer began, once", async () => {
    const storage = new MemoryStorage();
    const model = mockModel([{ text: "Hello back." }]);
    const agent = createAgent({ model, storage });
    const session = await agent.sessions.create();
    const userID = await storePrompt(storage, session.id, "hello");
    const { info } = await agent.resume(session.id);
    expect(info).toMatchObject({ role: "assistant", parentID: userID, finish: "stop" });
    expect((await storage.listMessages(session.id)).map((m) => m.info.role)).toEqual(["user", "assistant"]);
  });

  it("answers a stored prompt under the permission mode it was stored with", async () => {
    const storage = new MemoryStorage();
    const agent = createAgent({ model: mockModel([{ text: "A plan." }]), storage });
    const session = await agent.sessions.create();
    await storePrompt(storage, session.id, "plan it", "plan");
    const modes: string[] = [];
    agent.on("session.mode", (event) => modes.push(event.mode));
    await agent.resume(session.id);
    expect(modes).toEqual(["plan"]);
  });
});

describe("prompt({ messageID })", () => {
  it("stores the prompt under the given id and refuses the same id twice or an id that is not a message id", async () => {
    const storage = new MemoryStorage();
    const agent = createAgent({ model: mockModel([{ text: "one" }, { text: "two" }]), storage });
    const session = await agent.sessions.create();
    const messageID = createId("message");
    const { info } = await agent.prompt(session.id, "first", { messageID });
    expect(info.parentID).toBe(messageID);
    await expect(agent.prompt(session.id, "again", { messageID })).rejects.toBeInstanceOf(InvalidInputError);
    expect(() => agent.prompt(session.id, "bad", { messageID: "not-an-id" })).toThrow(InvalidInputError);
    expect((await storage.listMessages(session.id)).map((m) => m.info.role)).toEqual(["user", "assistant"]);
  });
});

describe("agent.resume() after the last step, before the message was closed", () => {
  it("closes the turn with the answer it has, without asking the model again", async () => {
    const storage = new MemoryStorage();
    const model = mockModel([{ text: "should not be asked" }]);
    const agent = createAgent({ model, storage });
    const session = await agent.sessions.create();
    const userID = createId("message");
    const answerID = createId("message");
    const base = { sessionID: session.id };
    const tokens = { ...emptyTokens(), input: 3, output: 4 };
    await storage.write({
      messages: [
        { id: userID, ...base, role: "user", time: { created: Date.now() }, agent: "build" },
        { id: answerID, ...base, role: "assistant", parentID: userID, time: { created: Date.now() }, providerID: "mock", modelID: "mock", agent: "build", cwd: process.cwd(), tokens, cost: 0, finish: "stop" },
      ],
      parts: [
        { id: createId("part"), ...base, messageID: userID, type: "text", text: "hi" },
        { id: createId("part"), ...base, messageID: answerID, type: "step-start" },
        { id: createId("part"), ...base, messageID: answerID, type: "text", text: "Hello.", time: { start: 1, end: 2 } },
        { id: createId("part"), ...base, messageID: answerID, type: "step-finish", reason: "stop", tokens, cost: 0 },
      ],
    });
    const { info, parts } = await agent.resume(session.id);
    expect(model.calls).toHaveLength(0);
    expect(info).toMatchObject({ id: answerID, finish: "stop" });
    expect(info.time.completed).toBeTypeOf("number");
    expect(texts(parts)).toEqual(["Hello."]);
    expect((await storage.getSession(session.id))!.usage.tokens.output).toBe(4);
  });
});
