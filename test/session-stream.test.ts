import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readUIMessageStream } from "ai";
import { afterEach, describe, expect, it } from "vitest";
import { createAgent, toUIMessages, toUIMessageStream, type Agent, type AgentEvent, type LatheUIMessage, type LoggedEvent } from "@lathe/core";
import { mockModel } from "@lathe/mock";

// The agent's session event log as library API: `agent.sessions.stream(id, { after })` replays what
// a client missed and goes on live; `agent.sessions.rejoin(id)` gives a running turn from its start,
// which `toUIMessageStream` turns into the stream its first client got.

let agent: Agent | undefined;
afterEach(async () => {
  await agent?.close();
  agent = undefined;
});

function setup(text = "Hello there, streamed in small pieces.", options: { perSession?: number; delayMs?: number } = {}) {
  agent = createAgent({
    model: mockModel([{ text: "Looking.", toolCalls: [{ name: "bash", input: { command: "echo hi" } }] }, { text }], { chunkSize: 4, delayMs: options.delayMs ?? 0 }),
    cwd: mkdtempSync(join(tmpdir(), "lathe-stream-")),
    snapshots: false,
    permission: { bash: "ask" },
    ...(options.perSession ? { eventLog: { perSession: options.perSession } } : {}),
  });
  return agent;
}

async function take(stream: AsyncIterable<LoggedEvent>, until: (e: LoggedEvent) => boolean): Promise<LoggedEvent[]> {
  const out: LoggedEvent[] = [];
  for await (const item of stream) {
    out.push(item);
    if (until(item)) break;
  }
  return out;
}

const idle = (sessionID: string) => (item: LoggedEvent) => item.event.type === "session.status" && item.event.sessionID === sessionID && item.event.status.type === "idle";

describe("agent.sessions.stream", () => {
  it("replays the logged events after a cursor, numbered densely, and goes on live", async () => {
    const agent = setup();
    const session = await agent.sessions.create();
    const live = take(agent.sessions.stream(session.id, { after: "now" }), idle(session.id));
    const seen: AgentEvent[] = [];
    agent.on("*", (event) => event.sessionID === session.id && seen.push(event));
    const run = agent.prompt(session.id, "go");
    for await (const event of run) if (event.type === "permission.asked") await agent.permissions.reply(event.request.id, "once");
    await run;
    const all = await live;
    expect(all.map((e) => e.event)).toEqual(seen);
    expect(all.map((e) => e.seq)).toEqual(all.map((_, i) => all[0]!.seq + i));
    // A client that saw up to the 10th event gets the rest, once.
    const cursor = all[9]!.seq;
    const rest = await take(agent.sessions.stream(session.id, { after: cursor }), idle(session.id));
    expect(rest).toEqual(all.slice(10));
    // From the start, the whole log, session.created included.
    const whole = await take(agent.sessions.stream(session.id), idle(session.id));
    expect(whole[0]!.event.type).toBe("session.created");
    expect(whole.slice(-all.length)).toEqual(all);
    await expect(agent.sessions.stream(session.id, { after: -1 })[Symbol.asyncIterator]().next()).rejects.toThrow(TypeError);
  });

  it("ends with its signal, or when the session is removed", async () => {
    const agent = setup();
    const session = await agent.sessions.create();
    const controller = new AbortController();
    const stream = agent.sessions.stream(session.id, { after: "now", signal: controller.signal })[Symbol.asyncIterator]();
    const next = stream.next();
    controller.abort();
    expect(await next).toEqual({ done: true, value: undefined });
    const other = agent.sessions.stream(session.id, { after: "now" })[Symbol.asyncIterator]();
    const pending = other.next();
    await agent.sessions.remove(session.id);
    // The deletion is the last event it gives, then it ends.
    expect((await pending).value?.event.type).toBe("session.deleted");
    expect(await other.next()).toEqual({ done: true, value: undefined });
  });

  it("keeps at most eventLog.perSession events; an older cursor resumes from the oldest kept", async () => {
    const agent = setup("word ".repeat(200), { perSession: 50 });
    const session = await agent.sessions.create();
    const run = agent.prompt(session.id, "go");
    for await (const event of run) if (event.type === "permission.asked") await agent.permissions.reply(event.request.id, "once");
    await run;
    const kept = await take(agent.sessions.stream(session.id, { after: 0 }), idle(session.id));
    expect(kept.length).toBeGreaterThanOrEqual(50);
    expect(kept.length).toBeLessThanOrEqual(50 + Math.ceil(50 / 8));
    expect(kept[0]!.seq).toBeGreaterThan(1);
    expect(kept.at(-1)!.event).toMatchObject({ type: "session.status", status: { type: "idle" } });
    expect(() => createAgent({ model: mockModel([]), eventLog: { perSession: 0 } })).toThrow(TypeError);
  });
});

describe("agent.sessions.rejoin", () => {
  it("is undefined for an idle session; mid-run it gives the run from its start, as toUIMessageStream's first client saw it", async () => {
    const agent = setup("Rejoined and complete.", { delayMs: 2 });
    const session = await agent.sessions.create();
    expect(agent.sessions.rejoin(session.id)).toBeUndefined();
    const run = agent.prompt(session.id, "go");
    const firstClient = (async () => {
      let last: LatheUIMessage | undefined;
      for await (const message of readUIMessageStream<LatheUIMessage>({ stream: toUIMessageStream(run) })) last = message;
      return last!;
    })();
    // Join while the call waits for approval.
    await new Promise<void>((resolve) => agent.once("permission.asked", () => resolve()));
    const rejoined = agent.sessions.rejoin(session.id)!;
    expect(rejoined.sessionID).toBe(session.id);
    const states: LatheUIMessage[] = [];
    const late = (async () => {
      for await (const message of readUIMessageStream<LatheUIMessage>({ stream: toUIMessageStream(rejoined) })) states.push(message);
      return states.at(-1)!;
    })();
    await new Promise((resolve) => setTimeout(resolve, 50));
    // Replayed up to now: the call waits, in the rejoined view too.
    expect(states.at(-1)!.parts.some((p) => "state" in p && p.state === "approval-requested")).toBe(true);
    await agent.permissions.reply((await agent.permissions.pending(session.id))[0]!.id, "once");
    const [first, second] = await Promise.all([firstClient, late]);
    const stored = toUIMessages(await agent.sessions.messages(session.id)).at(-1);
    expect(first).toEqual(stored);
    expect(second).toEqual(stored);
    expect(agent.sessions.rejoin(session.id)).toBeUndefined();
  });
});
