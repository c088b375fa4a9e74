import { PassThrough } from "node:stream";
import { createAgent, type Run } from "@lathe/core";
import { mockModel } from "@lathe/mock";
import { MemoryStorage, type WriteBatch } from "@lathe/storage";
import { describe, expect, it } from "vitest";
import { Interrupts } from "../examples/cli/src/interrupts.ts";
import { LiveFooter } from "../examples/cli/src/live-footer.ts";
import { Turns } from "../examples/cli/src/turns.ts";
import { TurnView } from "../examples/cli/src/turn-view.ts";
import { parseSubmit } from "../examples/cli/src/type-ahead.ts";
import { WaitingMessages, type WaitingMessage } from "../examples/cli/src/waiting-messages.ts";

// The parts of examples/cli that decide what a line typed during a turn does, and in which order the
// messages sent meanwhile get their turns; the terminal itself is tested through tmux in
// examples-cli-steer.test.ts.

function terminal() {
  const stream = new PassThrough();
  let text = "";
  stream.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
  return { out: stream as unknown as NodeJS.WriteStream, text: () => text.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, "") };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("examples/cli: what Enter sends while the agent works", () => {
  it("steers by default, queues with Alt+Enter or a /queue prefix, and sends nothing for an empty line", () => {
    expect(parseSubmit("  use the other file ", false)).toEqual({ text: "use the other file", mode: "steer" });
    expect(parseSubmit("use the other file", true)).toEqual({ text: "use the other file", mode: "queue" });
    expect(parseSubmit("/queue then the docs", false)).toEqual({ text: "then the docs", mode: "queue" });
    expect(parseSubmit("/queue   then the docs", true)).toEqual({ text: "then the docs", mode: "queue" });
    // Only the command itself: "/queued" is a message like any other.
    expect(parseSubmit("/queued items", false)).toEqual({ text: "/queued items", mode: "steer" });
    for (const empty of ["", "   ", "/queue", "/queue   "]) {
      expect(parseSubmit(empty, false)).toBeUndefined();
      expect(parseSubmit(empty, true)).toBeUndefined();
    }
  });
});

describe("examples/cli: the messages waiting for the agent", () => {
  const message = (text: string, mode: WaitingMessage["mode"], stored = true, messageID?: string): WaitingMessage => ({ text, mode, stored, run: {} as Run, ...(messageID ? { messageID } : {}) });

  it("shows each as queued, drops a steered one when it enters the turn, and gives the next turn to unanswered steers before the queue", () => {
    let lines: string[] = [];
    const waiting = new WaitingMessages((footer) => (lines = footer.map((line) => line.text)));
    const [queued, steer, late, again] = [
      message("then the docs", "queue"),
      message("use the other file", "steer", true, "msg_1"),
      message("and the tests", "steer", true, "msg_2"),
      message("use the other file", "steer", true, "msg_3"),
    ];
    for (const entry of [queued, steer, late, again]) waiting.add(entry);
    expect(lines).toEqual([
      "↳ queued: then the docs (its own turn, after this one)",
      "↳ queued: use the other file (the agent reads it at its next step)",
      "↳ queued: and the tests (the agent reads it at its next step)",
      "↳ queued: use the other file (the agent reads it at its next step)",
    ]);
    // Two with the same text: the one whose message entered leaves, found by its id.
    waiting.entered("msg_3", "use the other file");
    expect(lines).toHaveLength(3);
    expect(lines).toContain("↳ queued: use the other file (the agent reads it at its next step)");
    // An id it does not know (another client's message) takes nothing out.
    waiting.entered("msg_9", "someone else's");
    expect(lines).toHaveLength(3);
    // The turn ended before it took the others: they are answered together, before the queued one.
    expect(waiting.next()).toEqual([steer, late]);
    expect(waiting.next()).toEqual([queued]);
    expect(waiting.next()).toEqual([]);
    expect(lines).toEqual([]);
  });

  it("waits for a steered message still being stored rather than guessing whether a turn took it", () => {
    const waiting = new WaitingMessages(() => {});
    const storing = message("not yet stored", "steer", false);
    waiting.add(storing);
    waiting.add(message("queued", "queue"));
    expect(waiting.next().map((entry) => entry.text)).toEqual(["queued"]);
    expect(waiting.size).toBe(1);
    // Its id not known yet when the turn takes it: found by its text.
    waiting.entered("msg_7", "not yet stored");
    expect(waiting.size).toBe(0);
  });
});

describe("examples/cli: a steered message the turn ended before taking", () => {
  it("gets a turn of its own, shown once after the turn that missed it, with the message first", { timeout: 20_000 }, async () => {
    // The steered message is made (and so stored) only once the test lets it: after the turn ended.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const model = mockModel(
      [
        { text: "First answer, streamed slowly." },
        (call) => ({ text: `Answering: ${JSON.stringify(call.prompt.at(-1)?.content).includes("late one") ? "late one" : "something else"}.` }),
      ],
      { chunkSize: 3, delayMs: 20 },
    );
    const hooks = {
      "chat.message": async (_context: unknown, { parts }: { parts: Array<{ type: string; text?: string }> }) => {
        if (parts.some((part) => part.type === "text" && part.text === "late one")) await held;
      },
    };
    const agent = createAgent({ model, hooks, snapshots: false });
    const session = await agent.sessions.create();
    const screen = terminal();
    const view = new TurnView(screen.out);
    const interrupts = new Interrupts({ onExit: () => {}, onNotice: () => {} });
    const turns = new Turns({ agent, sessionID: session.id, agentName: "build", view, screen: new LiveFooter(screen.out), interrupts });
    try {
      const answered = turns.answer("first");
      while (!screen.text().includes("First")) await sleep(5);
      // Sent during the turn, stored only after it ended: no step of that turn could take it.
      turns.send("late one", "steer");
      while (!/\d+ in \/ \d+ out/.test(screen.text())) await sleep(5);
      release();
      await answered;
      const text = screen.text();
      expect(text).toMatch(/^First answer, streamed slowly\.\n\d+ in \/ \d+ out\n\n› late one\nAnswering: late one\.\n\d+ in \/ \d+ out\n\n$/);
      const messages = await agent.sessions.messages(session.id);
      expect(messages.map((m) => m.info.role)).toEqual(["user", "assistant", "user", "assistant"]);
    } finally {
      interrupts.dispose();
      await agent.close();
    }
  });
});

/** Memory storage that fails to write user messages while `failing` is set. */
class FailingUserWrites extends MemoryStorage {
  failing = false;
  override async write(batch: WriteBatch): Promise<void> {
    if (this.failing && batch.messages?.some((info) => info.role === "user")) throw new Error("disk full");
    return super.write(batch);
  }
}

describe("examples/cli: a message that cannot be stored", () => {
  it("leaves the waiting list and says why; the running turn goes on", { timeout: 20_000 }, async () => {
    const storage = new FailingUserWrites();
    const agent = createAgent({ model: mockModel([{ text: "An answer that streams for a while." }], { chunkSize: 3, delayMs: 20 }), storage, snapshots: false });
    const session = await agent.sessions.create();
    const screen = terminal();
    const footer = new LiveFooter(screen.out);
    const notes: string[][] = [];
    footer.setNotes = (lines) => notes.push(lines.map((line) => line.text));
    const interrupts = new Interrupts({ onExit: () => {}, onNotice: () => {} });
    const turns = new Turns({ agent, sessionID: session.id, agentName: "build", view: new TurnView(screen.out), screen: footer, interrupts });
    try {
      const answered = turns.answer("first");
      while (!screen.text().includes("An answer")) await sleep(5);
      storage.failing = true;
      turns.send("lost message", "steer");
      await answered;
      storage.failing = false;
      // On a line of its own, in the middle of the streamed answer, which goes on on the next line.
      const lines = screen.text().split("\n");
      const note = lines.findIndex((line) => /^Not sent: .*disk full$/.test(line));
      expect(note).toBeGreaterThan(0);
      expect([...lines.slice(0, note), ...lines.slice(note + 1, note + 2)].join("")).toBe("An answer that streams for a while.");
      // Shown as waiting, then taken off the list; nothing else ran.
      expect(notes[0]).toEqual(["↳ queued: lost message (the agent reads it at its next step)"]);
      expect(notes.at(-1)).toEqual([]);
      expect(screen.text()).not.toContain("› lost message");
      expect((await agent.sessions.messages(session.id)).map((m) => m.info.role)).toEqual(["user", "assistant"]);
    } finally {
      interrupts.dispose();
      await agent.close();
    }
  });
});
