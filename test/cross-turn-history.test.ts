// An agent keeps a session's history and its conversions from turn to turn (it reads and converts
// only what is new). What the model is sent must be what it would be sent if every turn read the
// whole session from storage and converted it afresh: the oracle here is that very thing — a new
// agent for every operation on the same storage — run with the same script. The operations cover
// what must make the kept history be read again or changed: a revert, a fork, a compaction, and
// another agent (another process, as far as the first knows) taking turns on the same SQLite file.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LanguageModelV4CallOptions, LanguageModelV4Prompt } from "@ai-sdk/provider";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAgent, SUMMARY_PROMPT, type Agent } from "@lathe/core";
import { mockModel, type MockModel, type MockTurn } from "@lathe/mock";
import { createId } from "@lathe/message";
import { MemoryStorage, SqliteStorage, type Storage } from "@lathe/storage";
import { echoTool } from "./helpers.js";

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "lathe-cross-turn-"));
  mkdirSync(join(root, "repo"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const lastUserText = (call: LanguageModelV4CallOptions) => {
  const last = call.prompt.at(-1);
  return last?.role === "user" ? last.content.map((p) => (p.type === "text" ? p.text : "")).join("") : undefined;
};

/** Each prompt: a tool call, then an answer; a summary request gets a summary. Deterministic by call index. */
function scriptedModel(): MockModel {
  const turn = (call: LanguageModelV4CallOptions, index: number): MockTurn => {
    const text = lastUserText(call);
    if (text === SUMMARY_PROMPT) return { text: `## Goal\nSummary ${index}.`, usage: { input: 50, output: 10 } };
    if (text !== undefined) return { text: `Working on it (${index}).`, toolCalls: [{ id: `call_${index}`, name: "echo", input: { text: `echo ${index}` } }], usage: { input: 50, output: 10 } };
    return { text: `Answer ${index}.`, usage: { input: 60, output: 10 } };
  };
  return mockModel(Array.from({ length: 60 }, () => turn));
}

/** An operation on the session(s), run by whichever agent the variant picks. */
type Operation = (agent: Agent, ids: { main: string; fork?: string }) => Promise<void>;

const prompt = (text: string, which: "main" | "fork" = "main"): Operation =>
  async (agent, ids) => {
    const { info } = await agent.prompt(ids[which]!, text);
    if (info.error) throw new Error(`${text}: ${info.error.message}`);
  };

const OPERATIONS: Operation[] = [
  prompt("one"),
  prompt("two"),
  prompt("three"),
  // Revert to the second prompt: the next prompt drops it and what followed.
  async (agent, ids) => {
    const users = (await agent.sessions.messages(ids.main)).filter((m) => m.info.role === "user");
    await agent.sessions.revert(ids.main, { messageID: users[1]!.info.id });
  },
  prompt("four"),
  async (agent, ids) => {
    const { info } = await agent.sessions.compact(ids.main);
    if (info.error) throw new Error(info.error.message);
  },
  prompt("five"),
  async (agent, ids) => {
    ids.fork = (await agent.sessions.fork(ids.main)).id;
  },
  prompt("six", "fork"),
  prompt("seven"),
  prompt("eight", "fork"),
  prompt("nine"),
];

/** The model's requests without their system messages (the system prompt is not what is cached). */
function conversation(model: MockModel): LanguageModelV4Prompt[] {
  return model.calls.map((call) => call.prompt.filter((m) => m.role !== "system"));
}

/**
 * Runs every operation, each by the agent `pick` names, and returns what the model was sent.
 * `agents` makes the agents (on storages it is given), all sharing one scripted model.
 */
async function run(storages: Storage[], pick: (step: number) => number, fresh: boolean): Promise<LanguageModelV4Prompt[]> {
  const model = scriptedModel();
  let n = 0;
  const make = (storage: Storage) =>
    createAgent({ model, tools: [echoTool()], storage, cwd: join(root, "repo"), dataDir: join(root, `data-${n++}`), configDir: false, instructions: "You are a test." });
  const kept = fresh ? [] : storages.map(make);
  const first = fresh ? make(storages[0]!) : kept[0]!;
  const ids: { main: string; fork?: string } = { main: (await first.sessions.create()).id };
  if (fresh) await first.close();
  for (const [step, operation] of OPERATIONS.entries()) {
    const storage = storages[pick(step)]!;
    const agent = fresh ? make(storage) : kept[pick(step)]!;
    await operation(agent, ids);
    if (fresh) await agent.close();
  }
  for (const agent of kept) await agent.close();
  return conversation(model);
}

describe("a history kept across turns sends what a fresh read and conversion would", () => {
  it("on memory storage, through reverts, a compaction and a fork", async () => {
    // The oracle: a new agent (nothing kept) for every operation on the same storage.
    const expected = await run([new MemoryStorage()], () => 0, true);
    const kept = await run([new MemoryStorage()], () => 0, false);
    expect(expected.length).toBeGreaterThan(OPERATIONS.length);
    expect(kept).toEqual(expected);
    // The revert took: no request after it carries the reverted prompts.
    const afterRevert = kept.slice(6).map((p) => JSON.stringify(p));
    expect(afterRevert.every((p) => !p.includes('"two"') && !p.includes('"three"'))).toBe(true);
  });

  it("on SQLite, with two agents on one file taking turns (each a writer the other did not see)", async () => {
    const file = (name: string) => join(root, `${name}.sqlite`);
    const expected = await run([new SqliteStorage(file("oracle"))], () => 0, true);
    const shared = file("shared");
    // Two agents, each with its own connection to the file (as two processes would have).
    const alternating = await run([new SqliteStorage(shared), new SqliteStorage(shared)], (step) => step % 2, false);
    expect(alternating).toEqual(expected);
    // And one agent alone on SQLite.
    const alone = await run([new SqliteStorage(file("alone"))], () => 0, false);
    expect(alone).toEqual(expected);
  });
});

describe("what tells a kept history it is stale", () => {
  it("a turn by another agent on the same storage, however soon after this agent's last write", async () => {
    const storage = new MemoryStorage();
    const model = scriptedModel();
    const options = { model, tools: [echoTool()], storage, cwd: join(root, "repo"), configDir: false as const, snapshots: false as const };
    const a = createAgent({ ...options, dataDir: join(root, "a") });
    const b = createAgent({ ...options, dataDir: join(root, "b") });
    const session = await a.sessions.create();
    for (const [agent, text] of [
      [a, "first"],
      [b, "second"],
      [a, "third"],
      [a, "fourth"],
      [b, "fifth"],
      [a, "sixth"],
    ] as const) {
      await agent.prompt(session.id, text);
      const sent = JSON.stringify(model.calls.at(-2)!.prompt);
      // Every request carries every earlier prompt, whoever answered it.
      for (const earlier of ["first", "second", "third", "fourth", "fifth"].slice(0, ["first", "second", "third", "fourth", "fifth", "sixth"].indexOf(text))) {
        expect(sent, `${text} after ${earlier}`).toContain(`"${earlier}"`);
      }
    }
    await a.close();
    await b.close();
  });

  it("a turn another process left unfinished (nothing but its first writes stored)", async () => {
    const storage = new MemoryStorage();
    const model = scriptedModel();
    const a = createAgent({ model, tools: [echoTool()], storage, cwd: join(root, "repo"), configDir: false, snapshots: false, dataDir: join(root, "a") });
    const session = await a.sessions.create();
    await a.prompt(session.id, "first");
    // Another process stamps the session and stores a prompt, then dies before answering it.
    const other = await storage.getSession(session.id);
    other!.time.updated += 1;
    const id = createId("message");
    await storage.write({
      sessions: [other!],
      messages: [{ id, sessionID: session.id, role: "user", time: { created: Date.now() }, agent: "build" }],
      parts: [{ id: createId("part"), sessionID: session.id, messageID: id, type: "text", text: "lost prompt" }],
    });
    await a.prompt(session.id, "second");
    expect(JSON.stringify(model.calls.at(-2)!.prompt)).toContain("lost prompt");
    await a.close();
  });
});
