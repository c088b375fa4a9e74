// Messages sent while a turn runs (`whileBusy`): a steered one joins the running turn's next request,
// queued ones get their own turns in order, each keeps its own run, both are stored at once and
// survive a SIGKILL. The model is scripted; its functions hold a step open while the test sends.
import { spawn } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { LanguageModelV4CallOptions, LanguageModelV4Prompt } from "@ai-sdk/provider";
import { afterAll, describe, expect, it } from "vitest";
import { readUIMessageStream } from "ai";
import { AgentClosedError, createAgent, SUMMARY_PROMPT, toUIMessageStream, type LatheUIMessage, InvalidInputError, NothingToResumeError, PromptDroppedError, SessionBusyError, toUIMessages, type Agent, type Run } from "@lathe/core";
import { mockModel, type MockTurn } from "@lathe/mock";
import { SqliteStorage } from "@lathe/storage";
import { chunkTool, collect, echoTool } from "./helpers.js";
import { deployTool } from "./fixtures/guarded-tool.ts";

const dir = mkdtempSync(join(tmpdir(), "lathe-steer-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What the user typed in a user message of a request (its first text; the environment note follows it). */
function typed(message: LanguageModelV4Prompt[number] | undefined): string | undefined {
  if (message?.role !== "user") return undefined;
  const first = message.content.find((p) => p.type === "text");
  return first?.type === "text" ? first.text : undefined;
}

/** The texts of the user messages of a request, in order. */
function userTexts(call: LanguageModelV4CallOptions): string[] {
  return call.prompt.flatMap((m) => (m.role === "user" ? [typed(m)!] : []));
}

/** The last message of a request, as text when it is the user's. */
function lastUser(call: LanguageModelV4CallOptions): string | undefined {
  return typed(call.prompt.at(-1));
}

/** A promise with its resolver, to hold a scripted step open. */
function gate(): { open: () => void; wait: Promise<void> } {
  let open!: () => void;
  const wait = new Promise<void>((resolve) => (open = resolve));
  return { open, wait };
}

const echo = (i: number): MockTurn => ({ text: `step ${i}`, toolCalls: [{ id: `call_${i}`, name: "echo", input: { text: `e${i}` } }] });

function conversation(prompt: LanguageModelV4Prompt): LanguageModelV4Prompt {
  return prompt.filter((m) => m.role !== "system");
}

async function session(agent: Agent): Promise<string> {
  return (await agent.sessions.create({})).id;
}

/** Runs the crash fixture until its prompt sent while busy is stored, then SIGKILLs it. */
async function storeThenKill(db: string, sessionID: string, how: "queue" | "steer"): Promise<void> {
  const child = spawn(process.execPath, [fileURLToPath(new URL("./fixtures/queue-then-die.ts", import.meta.url)), db, sessionID, how], { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stderr.on("data", (d) => (err += d));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on("data", (d) => {
      out += d;
      if (out.includes("QUEUED")) resolve();
    });
    child.on("exit", (code) => reject(new Error(`child exited ${code}: ${err}`)));
  });
  child.kill("SIGKILL");
  await new Promise((resolve) => child.on("exit", resolve));
}

/**
 * A session whose process was SIGKILLed right after a prompt sent while busy was stored, resumed by
 * a new agent on the same SQLite file whose model echoes the last user message.
 */
async function killThenResume(how: "queue" | "steer") {
  const db = join(dir, `killed-${how}.db`);
  const storage = new SqliteStorage(db);
  const setup = createAgent({ model: mockModel([]), storage });
  const id = await session(setup);
  await setup.close();
  await storeThenKill(db, id, how);
  const echoLast = (call: LanguageModelV4CallOptions): MockTurn => ({ text: `answer to ${lastUser(call)}` });
  const model = mockModel([echoLast, echoLast]);
  const agent = createAgent({ model, storage, snapshots: false, leaseTtlMs: 500 });
  const result = await resumeAfterLease(agent, id);
  return { storage, id, model, agent, result };
}

/** Resumes once the dead process's lease ran out. */
async function resumeAfterLease(agent: Agent, sessionID: string) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await agent.resume(sessionID);
    } catch (error) {
      if (!(error instanceof SessionBusyError) || attempt > 40) throw error;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

describe("steering a running turn", () => {
  it("a message sent during step 2 of 5 is in request 3, after step 2's tool result, and the turn goes on", async () => {
    const storage = new SqliteStorage(join(dir, "steer.db"));
    let agent!: Agent;
    let id = "";
    let steered: Run | undefined;
    let steeredAt: Awaited<Run["stored"]> | undefined;
    const model = mockModel([
      () => echo(1),
      async () => {
        // Step 2 is streaming: the user types a correction.
        steered = agent.prompt(id, "no, use the other file", { whileBusy: "steer" });
        steeredAt = await steered.stored;
        return echo(2);
      },
      () => echo(3),
      () => echo(4),
      () => ({ text: "done with the other file" }),
      () => ({ text: "the next turn" }),
    ]);
    agent = createAgent({ model, storage, tools: [echoTool()], snapshots: false });
    id = await session(agent);
    const run = agent.prompt(id, "fix the bug in a.ts");
    const streamed = (async () => {
      let last: LatheUIMessage | undefined;
      for await (const message of readUIMessageStream<LatheUIMessage>({ stream: toUIMessageStream(run) })) last = message;
      return last!;
    })();
    const [result, steerResult] = await Promise.all([run, run.stored.then(async () => { while (!steered) await new Promise((r) => setTimeout(r, 1)); return steered; })]);
    const answered = await steerResult;

    expect(model.calls).toHaveLength(5);
    expect(model.remaining).toBe(1);
    expect(userTexts(model.calls[1]!)).toEqual(["fix the bug in a.ts"]);
    // Request 3 ends with step 2's tool result, then the steered message as the newest user message.
    const third = conversation(model.calls[2]!.prompt);
    expect(lastUser(model.calls[2]!)).toBe("no, use the other file");
    expect(third.at(-2)).toMatchObject({ role: "tool", content: [{ type: "tool-result", toolCallId: "call_2" }] });
    expect(userTexts(model.calls[4]!)).toEqual(["fix the bug in a.ts", "no, use the other file"]);

    // One turn: both runs resolve with its last message, which answers the steered one.
    expect(result.info.id).toBe(answered.info.id);
    expect(result.info.finish).toBe("stop");
    const history = await agent.sessions.messages(id);
    expect(history.map((m) => m.info.role)).toEqual(["user", "assistant", "user", "assistant"]);
    expect(history[3]!.info).toMatchObject({ role: "assistant", parentID: history[2]!.info.id });
    // The steered run said where its message is stored; it is marked as steered.
    expect(steeredAt).toEqual({ messageID: history[2]!.info.id });
    expect(history[2]!.info).toMatchObject({ role: "user", steered: true });
    expect(await run.stored).toEqual({ messageID: history[0]!.info.id });
    expect(history[1]!.info.role === "assistant" && history[1]!.info.time.completed).toBeTruthy();
    expect(history[1]!.parts.filter((p) => p.type === "step-finish")).toHaveLength(2);
    expect(history[3]!.parts.filter((p) => p.type === "step-finish")).toHaveLength(3);
    // The UI shows the steered message where it entered the turn.
    expect(toUIMessages(history).map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
    // Live, the run's one UI message shows it between step 2 and step 3.
    const live = (await streamed).parts.filter((p) => p.type === "step-start" || p.type === "data-steer");
    expect(live.map((p) => p.type)).toEqual(["step-start", "step-start", "data-steer", "step-start", "step-start", "step-start"]);
    expect(live[2]).toMatchObject({ data: { messageID: history[2]!.info.id, text: "no, use the other file" } });

    // The next turn of the same agent starts from the history it kept across turns.
    await agent.prompt(id, "and now?");
    expect(model.calls).toHaveLength(6);
    // What it sent equals a fresh conversion of what is stored: a new agent on the same storage sends
    // the same conversation before its own prompt.
    const fresh = mockModel([{ text: "fresh" }]);
    const other = createAgent({ model: fresh, storage, tools: [echoTool()], snapshots: false });
    await other.prompt(id, "and then?");
    for (const sent of [model.calls[4]!, model.calls[5]!]) {
      const kept = conversation(sent.prompt);
      expect(conversation(fresh.calls[0]!.prompt).slice(0, kept.length)).toEqual(kept);
    }
    await other.close();
    await agent.close();
  });

  it("compaction and revert after a steered turn: the next request equals a fresh conversion of what is stored", async () => {
    const db = join(dir, "steer-compact.db");
    const storage = new SqliteStorage(db);
    let agent!: Agent;
    let id = "";
    const reply = (call: LanguageModelV4CallOptions): MockTurn => (lastUser(call) === SUMMARY_PROMPT ? { text: "## Goal\nsummary" } : { text: `ok: ${lastUser(call)}` });
    const model = mockModel([
      async () => {
        await agent.prompt(id, "steer one", { whileBusy: "steer" }).stored;
        return echo(1);
      },
      ...Array.from({ length: 8 }, () => reply),
    ]);
    // Reverts restore files from snapshots: a workspace of its own.
    const cwd = mkdtempSync(join(dir, "work-"));
    agent = createAgent({ model, storage, cwd, dataDir: join(cwd, ".data"), tools: [echoTool()] });
    id = await session(agent);
    await agent.prompt(id, "start");
    await agent.prompt(id, "second");
    const history = await agent.sessions.messages(id);
    const steerID = history.find((m) => m.parts.some((p) => p.type === "text" && p.text === "steer one"))!.info.id;
    /** The same agent's next request, and a new agent's on a copy of the storage, hold the same conversation. */
    let copies = 0;
    const sameAsFresh = async (text: string) => {
      await agent.prompt(id, text);
      const kept = conversation(model.calls.at(-1)!.prompt);
      // A copy of the SQLite file as it stands (its write-ahead log included): the probe writes there only.
      const copy = join(dir, `steer-compact-copy-${copies++}.db`);
      for (const suffix of ["", "-wal", "-shm"]) if (existsSync(db + suffix)) copyFileSync(db + suffix, copy + suffix);
      const fresh = mockModel([{ text: "fresh" }]);
      const other = createAgent({ model: fresh, storage: new SqliteStorage(copy), cwd, dataDir: join(cwd, ".data-copy"), tools: [echoTool()] });
      await other.prompt(id, "probe");
      expect(conversation(fresh.calls[0]!.prompt).slice(0, kept.length)).toEqual(kept);
      await other.close();
    };
    await agent.sessions.compact(id);
    await sameAsFresh("after compaction");
    await agent.sessions.revert(id, { messageID: steerID });
    await sameAsFresh("after revert");
    expect(model.calls.flatMap(userTexts)).toContain("steer one");
    await agent.close();
  });

  it("a turn compacted after a message was steered in finishes, and its history stays in id order", async () => {
    const fetched: number[] = [];
    const chunk = chunkTool(fetched);
    // The fixed cost of a request with this tool, so that the window holds about five chunks.
    const probe = mockModel([{ text: "ok" }]);
    const measure = createAgent({ model: probe, tools: [chunk], snapshots: false });
    const base = (await measure.prompt((await measure.sessions.create()).id, "Collect all 10 chunks of the data set, one at a time.")).info.tokens.input;
    await measure.close();
    let agent!: Agent;
    let id = "";
    let steered: Run | undefined;
    const model = mockModel(
      Array.from({ length: 30 }, () => async (call: LanguageModelV4CallOptions): Promise<MockTurn> => {
        if (lastUser(call) === SUMMARY_PROMPT) return { text: `## Goal\nCollect all 10 chunks; chunks 1-${fetched.length} done; the user asked for a count at the end.` };
        if (fetched.length === 2 && !steered) {
          steered = agent.prompt(id, "and count the words at the end", { whileBusy: "steer" });
          await steered.stored;
        }
        if (fetched.length < 10) return { text: `Fetching chunk ${fetched.length + 1}.`, toolCalls: [{ name: "fetch_chunk", input: { n: fetched.length + 1 } }] };
        return { text: "All 10 chunks collected: 6,600 words." };
      }),
    );
    agent = createAgent({ model, tools: [chunk], snapshots: false, models: { "mock-model": { contextWindow: base + 6_000, maxOutputTokens: 1_000 } } });
    id = await session(agent);
    const { events, result } = await collect(agent.prompt(id, "Collect all 10 chunks of the data set, one at a time."));
    expect(result.info.error).toBeUndefined();
    expect(fetched).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(events.some((e) => e.type === "session.compacted")).toBe(true);
    expect((await steered!).info.id).toBe(result.info.id);
    expect(model.calls.some((call) => userTexts(call).includes("and count the words at the end"))).toBe(true);
    const history = await agent.sessions.messages(id);
    const ids = history.map((m) => m.info.id);
    expect(ids).toEqual([...ids].sort());
    // Every assistant message answers a user message before it.
    for (const [index, message] of history.entries()) {
      if (message.info.role !== "assistant") continue;
      const parent = history.findIndex((m) => m.info.id === (message.info.role === "assistant" ? message.info.parentID : ""));
      expect(parent).toBeGreaterThanOrEqual(0);
      expect(parent).toBeLessThan(index);
    }
    await agent.close();
  });

  it("a message steered into the turn's last step gets the turn going on instead of ending", async () => {
    let agent!: Agent;
    let id = "";
    let steered: Run | undefined;
    const model = mockModel([
      async () => {
        steered = agent.prompt(id, "also add a test", { whileBusy: "steer" });
        await steered.stored;
        return { text: "fixed" };
      },
      (call) => ({ text: `answering: ${lastUser(call)}` }),
    ]);
    agent = createAgent({ model, snapshots: false });
    id = await session(agent);
    const result = await agent.prompt(id, "fix it");
    expect(model.calls).toHaveLength(2);
    expect(result.parts.find((p) => p.type === "text")).toMatchObject({ text: "answering: also add a test" });
    expect((await steered!).info.id).toBe(result.info.id);
    await agent.close();
  });

  it("steers during a pending approval: the approval still works and the next request has its result, then the message", async () => {
    const held = gate();
    let agent!: Agent;
    let id = "";
    const model = mockModel([
      { text: "deploying", toolCalls: [{ id: "call_deploy", name: "deploy", input: { target: "staging/web" } }] },
      (call) => ({ text: `ok: ${lastUser(call)}` }),
    ]);
    const log: string[] = [];
    agent = createAgent({
      model,
      tools: [deployTool(log)],
      permission: { deploy: "ask" },
      snapshots: false,
      approve: async () => {
        await held.wait;
        return "once";
      },
    });
    id = await session(agent);
    const asked = new Promise((resolve) => agent.once("permission.asked", resolve));
    const run = agent.prompt(id, "deploy staging");
    await asked;
    const steered = agent.prompt(id, "and tell me the url", { whileBusy: "steer" });
    await steered.stored;
    held.open();
    const [result, answer] = await Promise.all([run, steered]);
    expect(log).toEqual(["staging/web"]);
    const second = conversation(model.calls[1]!.prompt);
    expect(second.at(-2)).toMatchObject({ role: "tool", content: [{ type: "tool-result", toolCallId: "call_deploy" }] });
    expect(lastUser(model.calls[1]!)).toBe("and tell me the url");
    expect(answer.info.id).toBe(result.info.id);
    expect(result.info.error).toBeUndefined();
    await agent.close();
  });

  it("a steered run aborted before the turn takes it drops its message: nothing answers it", async () => {
    const held = gate();
    let agent!: Agent;
    const model = mockModel([
      async () => {
        await held.wait;
        return { text: "done" };
      },
    ]);
    agent = createAgent({ model, snapshots: false });
    const id = await session(agent);
    const run = agent.prompt(id, "work");
    await run.stored;
    const steered = agent.prompt(id, "never mind this", { whileBusy: "steer" });
    await steered.stored;
    steered.abort();
    await expect(steered).rejects.toBeInstanceOf(PromptDroppedError);
    held.open();
    await run;
    expect(model.calls).toHaveLength(1);
    const texts = (await agent.sessions.messages(id)).flatMap((m) => m.parts.flatMap((p) => (p.type === "text" ? [p.text] : [])));
    expect(texts).not.toContain("never mind this");
    await agent.close();
  });

  it("steered messages no turn took (the turn was aborted) are answered by a turn of their own", async () => {
    const held = gate();
    let agent!: Agent;
    const model = mockModel([
      async (call) => {
        await held.wait;
        return { text: `first: ${lastUser(call)}` };
      },
      (call) => ({ text: `then: ${lastUser(call)}` }),
    ]);
    agent = createAgent({ model, snapshots: false });
    const id = await session(agent);
    const run = agent.prompt(id, "work");
    await run.stored;
    const steered = agent.prompt(id, "stop and do this instead", { whileBusy: "steer" });
    await steered.stored;
    agent.abort(id);
    held.open();
    expect((await run).info.finish).toBe("aborted");
    const answer = await steered;
    expect(answer.parts.find((p) => p.type === "text")).toMatchObject({ text: "then: stop and do this instead" });
    expect(answer.info.id).not.toBe((await run).info.id);
    await agent.close();
  });
});

describe("queueing prompts behind a running turn", () => {
  it("three queued messages run in order, once each, each run with its own turn", async () => {
    const held = gate();
    const model = mockModel([
      async () => {
        await held.wait;
        return { text: "first done" };
      },
      ...Array.from({ length: 3 }, () => (call: LanguageModelV4CallOptions) => ({ text: `answer to ${lastUser(call)}` })),
    ]);
    const storage = new SqliteStorage(join(dir, "queue.db"));
    const agent = createAgent({ model, storage, snapshots: false, whileBusy: "queue" });
    const id = await session(agent);
    const first = agent.prompt(id, "first");
    await first.stored;
    const queued = ["q1", "q2", "q3"].map((text) => agent.prompt(id, text));
    const at = await Promise.all(queued.map((run) => run.stored));
    // Stored before any of them runs: on the session's queue, in order, each run naming its entry.
    const entries = (await storage.getSession(id))?.queue;
    expect(entries?.map((e) => e.input)).toEqual([[{ type: "text", text: "q1" }], [{ type: "text", text: "q2" }], [{ type: "text", text: "q3" }]]);
    expect(at).toEqual(entries!.map((e) => ({ queuedID: e.id })));
    held.open();
    const results = await Promise.all([first, ...queued]);
    expect(model.calls.map(lastUser)).toEqual(["first", "q1", "q2", "q3"]);
    expect(results.map((r) => r.parts.find((p) => p.type === "text"))).toMatchObject([{ text: "first done" }, { text: "answer to q1" }, { text: "answer to q2" }, { text: "answer to q3" }]);
    expect(new Set(results.map((r) => r.info.id)).size).toBe(4);
    const history = await agent.sessions.messages(id);
    expect(history.map((m) => (m.info.role === "user" ? m.parts.find((p) => p.type === "text")?.text : "A"))).toEqual(["first", "A", "q1", "A", "q2", "A", "q3", "A"]);
    expect((await storage.getSession(id))?.queue).toBeUndefined();
    await agent.close();
  });

  it("aborting the running turn leaves the queue running", async () => {
    const held = gate();
    const model = mockModel([
      async () => {
        await held.wait;
        return { text: "never seen" };
      },
      (call) => ({ text: `answer to ${lastUser(call)}` }),
    ]);
    const agent = createAgent({ model, snapshots: false });
    const id = await session(agent);
    const first = agent.prompt(id, "long job");
    await first.stored;
    const next = agent.prompt(id, "after it", { whileBusy: "queue" });
    await next.stored;
    first.abort();
    held.open();
    expect((await first).info.finish).toBe("aborted");
    expect((await next).parts.find((p) => p.type === "text")).toMatchObject({ text: "answer to after it" });
    expect(agent.isBusy(id)).toBe(false);
    await agent.close();
  });

  it("aborting a queued run drops only that message", async () => {
    const held = gate();
    const model = mockModel([
      async () => {
        await held.wait;
        return { text: "first done" };
      },
      (call) => ({ text: `answer to ${lastUser(call)}` }),
      (call) => ({ text: `answer to ${lastUser(call)}` }),
    ]);
    const storage = new SqliteStorage(join(dir, "drop.db"));
    const agent = createAgent({ model, storage, snapshots: false });
    const id = await session(agent);
    const first = agent.prompt(id, "first");
    await first.stored;
    const [q1, q2, q3] = ["q1", "q2", "q3"].map((text) => agent.prompt(id, text, { whileBusy: "queue" }));
    await Promise.all([q1!.stored, q2!.stored, q3!.stored]);
    q2!.abort("changed my mind");
    await expect(q2!).rejects.toBeInstanceOf(PromptDroppedError);
    held.open();
    await Promise.all([first, q1, q3]);
    expect(model.calls.map(lastUser)).toEqual(["first", "q1", "q3"]);
    expect(model.calls.flatMap(userTexts)).not.toContain("q2");
    expect((await storage.getSession(id))?.queue).toBeUndefined();
    await agent.close();
  });

  it("closing the agent keeps queued prompts stored; the next agent's resume answers them in order", async () => {
    const storage = new SqliteStorage(join(dir, "close.db"));
    const model = mockModel([() => new Promise<MockTurn>(() => {})]);
    const agent = createAgent({ model, storage, snapshots: false });
    const id = await session(agent);
    const first = agent.prompt(id, "long job");
    await first.stored;
    const queued = ["q1", "q2"].map((text) => agent.prompt(id, text, { whileBusy: "queue" }));
    await Promise.all(queued.map((run) => run.stored));
    await agent.close();
    expect((await first).info.finish).toBe("aborted");
    for (const run of queued) await expect(run).rejects.toBeInstanceOf(AgentClosedError);
    expect((await storage.getSession(id))?.queue).toHaveLength(2);

    const next = mockModel([(call) => ({ text: `answer to ${lastUser(call)}` }), (call) => ({ text: `answer to ${lastUser(call)}` })]);
    const again = createAgent({ model: next, storage, snapshots: false });
    const result = await again.resume(id);
    expect(next.calls.map(lastUser)).toEqual(["q1", "q2"]);
    expect(result.parts.find((p) => p.type === "text")).toMatchObject({ text: "answer to q2" });
    expect((await storage.getSession(id))?.queue).toBeUndefined();
    await again.close();
  });

  it("rejects by default, and refuses what a busy prompt cannot carry", async () => {
    const held = gate();
    const model = mockModel([
      async () => {
        await held.wait;
        return { text: "done" };
      },
    ]);
    const agent = createAgent({ model, snapshots: false });
    const id = await session(agent);
    const run = agent.prompt(id, "work");
    expect(() => agent.prompt(id, "again")).toThrow(SessionBusyError);
    expect(() => agent.prompt(id, "again", { whileBusy: "later" as never })).toThrow(InvalidInputError);
    expect(() => agent.prompt(id, "again", { whileBusy: "queue", messageID: "msg_1" })).toThrow(InvalidInputError);
    expect(() => createAgent({ model, whileBusy: "sometimes" as never })).toThrow(InvalidInputError);
    // A steered message joins a turn that keeps its own settings: refused rather than ignored.
    expect(() => agent.prompt(id, "again", { whileBusy: "steer", mode: "plan" })).toThrow(/keeps its own mode/);
    expect(() => agent.prompt(id, [{ type: "subtask", agent: "general", description: "d", prompt: "p" }], { whileBusy: "steer" })).toThrow(InvalidInputError);
    expect(agent.isBusy(id)).toBe(true);
    held.open();
    await run;
    await agent.close();
  });

  it("a queued message survives a SIGKILL: resume in a new process answers it once", async () => {
    const { storage, id, agent, result } = await killThenResume("queue");
    expect(result.parts.find((p) => p.type === "text")).toMatchObject({ text: "answer to then, the queued one" });
    const history = await agent.sessions.messages(id);
    const users = history.filter((m) => m.info.role === "user").map((m) => m.parts.find((p) => p.type === "text")?.text);
    expect(users).toEqual(["first, a long job", "then, the queued one"]);
    expect(history.filter((m) => m.info.role === "assistant" && m.info.parentID === history.find((u) => u.parts.some((p) => p.type === "text" && p.text === "then, the queued one"))?.info.id)).toHaveLength(1);
    expect((await storage.getSession(id))?.queue).toBeUndefined();
    // Once: nothing is left to resume.
    await expect(agent.resume(id)).rejects.toBeInstanceOf(NothingToResumeError);
    await agent.close();
  });

  it("a steered message survives a SIGKILL: resume goes on with the interrupted turn and answers it once", async () => {
    const { id, model, agent, result } = await killThenResume("steer");
    // The step that was streaming is requested again, then the steered message is answered.
    expect(model.calls.map(lastUser)).toEqual(["first, a long job", "also, the steered one"]);
    expect(result.parts.find((p) => p.type === "text")).toMatchObject({ text: "answer to also, the steered one" });
    const history = await agent.sessions.messages(id);
    expect(history.map((m) => m.info.role)).toEqual(["user", "assistant", "user", "assistant"]);
    expect(history.every((m) => m.info.role === "user" || (m.info.role === "assistant" && m.info.time.completed !== undefined))).toBe(true);
    await expect(agent.resume(id)).rejects.toBeInstanceOf(NothingToResumeError);
    await agent.close();
  });
});
