import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readUIMessageStream, type UIMessage } from "ai";
import { describe, expect, it } from "vitest";
import { createAgent, rejoinRun, toUIMessageStream, type AgentEvent, type LatheUIMessage, type LatheUIMessageChunk } from "@lathe/core";
import type { Part, ToolPart } from "@lathe/message";
import { mockModel } from "@lathe/mock";

// One tool part per call in the UI stream, at every moment, whatever the step framing: the AI SDK's
// own reader (readUIMessageStream, what useChat runs) is the oracle. A call's later updates — its
// input complete, its approval, its output — are generated to land anywhere after it started,
// before or after the step ends and the next one begins.

const SESSION = "ses_gen";
const MESSAGE = "msg_gen";

/** A small seeded generator, so a failing sequence can be replayed. */
function random(seed: number) {
  let state = Math.imul(seed, 2654435761) >>> 0 || 1;
  const next = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
  for (let i = 0; i < 20; i++) next(); // small seeds start with small numbers
  return { next, int: (n: number) => Math.floor(next() * n), chance: (p: number) => next() < p };
}

const base = (id: string) => ({ id, sessionID: SESSION, messageID: MESSAGE });
const updated = (part: Part, delta?: string): AgentEvent => ({ type: "message.part.updated", sessionID: SESSION, part, ...(delta ? { delta } : {}) });
const tool = (id: string, callID: string, state: ToolPart["state"]): Part => ({ ...base(id), type: "tool", callID, tool: "bash", state }) as Part;

/** A turn's events: steps of text and tool calls, each call's lifecycle interleaved at random with what comes after it. */
function generatedTurn(seed: number): AgentEvent[] {
  const rng = random(seed);
  const assistant = { id: MESSAGE, sessionID: SESSION, role: "assistant", parentID: "msg_user", agent: "build", time: { created: 1 } } as never;
  const out: AgentEvent[] = [{ type: "message.updated", sessionID: SESSION, message: assistant }];
  /** Events of calls still to be placed: each call's own order is kept. */
  let tails: AgentEvent[][] = [];
  const place = () => {
    // Some of the waiting calls move on now.
    for (const tail of tails) while (tail.length > 0 && rng.chance(0.4)) out.push(tail.shift()!);
    tails = tails.filter((tail) => tail.length > 0);
  };
  const steps = 1 + rng.int(4);
  let n = 0;
  for (let step = 0; step < steps; step++) {
    out.push(updated({ ...base(`prt_s${step}`), type: "step-start" } as Part));
    place();
    if (rng.chance(0.7)) {
      const id = `prt_t${step}`;
      out.push(updated({ ...base(id), type: "text", text: "" } as Part));
      out.push(updated({ ...base(id), type: "text", text: "Hello" } as Part, "Hello"));
      place();
      out.push(updated({ ...base(id), type: "text", text: "Hello.", time: { start: 1, end: 2 } } as Part, "."));
    }
    const calls = rng.int(3);
    for (let c = 0; c < calls; c++) {
      const callID = `call_${n}`;
      const id = `prt_c${n++}`;
      const input = { command: `echo ${callID}` };
      const raw = JSON.stringify(input);
      out.push(updated(tool(id, callID, { status: "pending", input: {}, raw: "" })));
      const cut = 1 + rng.int(raw.length - 1);
      const tail: AgentEvent[] = [updated(tool(id, callID, { status: "pending", input: {}, raw: raw.slice(0, cut) }), raw.slice(0, cut))];
      tail.push(updated(tool(id, callID, { status: "pending", input: {}, raw }), raw.slice(cut)));
      tail.push(updated(tool(id, callID, { status: "running", input, time: { start: 3 } })));
      const ask = rng.chance(0.6);
      const approved = rng.chance(0.7);
      const requestID = `per_${callID}`;
      if (ask) {
        const request = { id: requestID, sessionID: SESSION, permission: "bash", patterns: [input.command], always: [], metadata: {}, tool: { messageID: MESSAGE, callID } };
        tail.push({ type: "permission.asked", sessionID: SESSION, request } as never);
        tail.push({ type: "permission.replied", sessionID: SESSION, requestID, reply: approved ? "once" : "reject" });
      }
      const approval = ask ? { approval: { id: requestID, approved } } : {};
      tail.push(
        ask && !approved
          ? updated(tool(id, callID, { status: "error", input, error: "rejected", metadata: approval, time: { start: 3, end: 4 } } as never))
          : updated(tool(id, callID, { status: "completed", input, output: "ok", title: "echo", metadata: approval, time: { start: 3, end: 4 } } as never)),
      );
      tails.push(tail);
      place();
    }
    out.push(updated({ ...base(`prt_f${step}`), type: "step-finish", reason: "tool-calls", cost: 0, tokens: {} } as never));
    place();
  }
  for (const tail of tails) out.push(...tail);
  out.push({ type: "message.updated", sessionID: SESSION, message: { ...(assistant as object), time: { created: 1, completed: 5 }, finish: "stop" } as never });
  out.push({ type: "session.status", sessionID: SESSION, status: { type: "idle" } });
  return out;
}

async function* from(events: AgentEvent[]) {
  yield* events;
}

/** The number of parts per tool call id in a message. */
function partsPerCall(message: UIMessage): Map<string, number> {
  const counts = new Map<string, number>();
  for (const part of message.parts) if ("toolCallId" in part) counts.set(part.toolCallId, (counts.get(part.toolCallId) ?? 0) + 1);
  return counts;
}

/** Reads a UI stream with the AI SDK's reader, checking each state of the message. */
async function readChecked(stream: ReadableStream<LatheUIMessageChunk>, onState?: (message: LatheUIMessage) => Promise<void>) {
  const errors: unknown[] = [];
  let final: LatheUIMessage | undefined;
  let states = 0;
  for await (const message of readUIMessageStream<LatheUIMessage>({ stream, onError: (e) => errors.push(e) })) {
    states++;
    for (const [callID, count] of partsPerCall(message)) expect(count, `parts of ${callID} at state ${states}`).toBe(1);
    final = message;
    await onState?.(message);
  }
  expect(errors).toEqual([]);
  return final!;
}

describe("one tool part per call", () => {
  it("for 300 generated turns whose calls finish after later steps began", async () => {
    let interleaved = 0;
    for (let seed = 1; seed <= 300; seed++) {
      const events = generatedTurn(seed);
      // Count the turns where a call's update really lands after a later step-start.
      const lastStart = (i: number) => events.slice(0, i).filter((e) => e.type === "message.part.updated" && e.part.type === "step-start").length;
      const startedIn = new Map<string, number>();
      events.forEach((e, i) => {
        if (e.type !== "message.part.updated" || e.part.type !== "tool") return;
        if (!startedIn.has(e.part.callID)) startedIn.set(e.part.callID, lastStart(i));
        else if (startedIn.get(e.part.callID)! < lastStart(i)) interleaved++;
      });
      const final = await readChecked(toUIMessageStream(rejoinRun(SESSION, from(events))));
      const calls = new Set(events.flatMap((e) => (e.type === "message.part.updated" && e.part.type === "tool" ? [e.part.callID] : [])));
      expect(new Set(partsPerCall(final).keys()), `seed ${seed}`).toEqual(calls);
      for (const part of final.parts) if ("toolCallId" in part) expect(["output-available", "output-error", "output-denied"], `seed ${seed}`).toContain(part.state);
    }
    expect(interleaved).toBeGreaterThan(100);
  });

  it("for a real turn whose calls wait for approval, through useChat's reader", async () => {
    const model = mockModel(
      [
        { reasoning: "Run it.", text: "Running.", toolCalls: [{ name: "bash", input: { command: "echo one" } }, { name: "bash", input: { command: "echo two" } }] },
        { text: "Both ran." },
      ],
      { chunkSize: 2 },
    );
    const agent = createAgent({ model, cwd: mkdtempSync(join(tmpdir(), "lathe-onepart-")), snapshots: false, permission: { bash: "ask" } });
    const session = await agent.sessions.create();
    const run = agent.prompt(session.id, "run both");
    const answered = new Set<string>();
    const final = await readChecked(toUIMessageStream(run), async (message) => {
      for (const part of message.parts) {
        if (!("approval" in part) || part.state !== "approval-requested" || answered.has(part.approval.id)) continue;
        answered.add(part.approval.id);
        await agent.permissions.reply(part.approval.id, "once");
      }
    });
    expect(answered.size).toBe(2);
    expect([...partsPerCall(final).values()]).toEqual([1, 1]);
    await agent.close();
  });
});
