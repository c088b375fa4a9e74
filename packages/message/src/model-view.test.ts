import { describe, expect, it } from "vitest";
import { estimateMessagesTokens } from "./estimate-tokens.js";
import type { AssistantMessage } from "./message.js";
import type { MessageWithParts } from "./message-with-parts.js";
import { modelView } from "./model-view.js";
import { selectTail } from "./tail.js";
import { assistantMsg, compactionMsg, ids, summaryMsg, turn, userMsg } from "./test-helpers.js";
import { COMPACTION_PROMPT, toModelMessages } from "./to-model-messages.js";

const turns = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => turn(from + i, [40])).flat();

describe("modelView", () => {
  it("is the whole history, same objects in a new array, when nothing was compacted", () => {
    const history = turns(1, 3);
    const view = modelView(history);
    expect(view).not.toBe(history);
    expect(view).toHaveLength(6);
    view.forEach((m, i) => expect(m).toBe(history[i]));
    expect(modelView([])).toEqual([]);
  });

  it("starts at an active compaction: its message, its summary, its tail, then what follows the summary", () => {
    const history = [
      ...turns(1, 4),
      compactionMsg("msg_0004c", "msg_0003a"),
      summaryMsg("msg_0004d", "msg_0004c", "Goal: fix the bug"),
      ...turns(5, 6),
    ];
    const view = modelView(history);
    expect(ids(view)).toEqual([
      "msg_0004c",
      "msg_0004d",
      "msg_0003a",
      "msg_0003b",
      "msg_0004a",
      "msg_0004b",
      "msg_0005a",
      "msg_0005b",
      "msg_0006a",
      "msg_0006b",
    ]);
    for (const m of view) expect(history).toContain(m); // the stored objects, not copies
  });

  it("shows no verbatim tail when the compaction kept none", () => {
    const history = [...turns(1, 2), compactionMsg("msg_0002c"), summaryMsg("msg_0002d", "msg_0002c", "summary"), ...turns(3, 3)];
    expect(ids(modelView(history))).toEqual(["msg_0002c", "msg_0002d", "msg_0003a", "msg_0003b"]);
  });

  it("takes the tail as an id range, whether or not a message has exactly that id", () => {
    const history = [...turns(1, 3), compactionMsg("msg_0003c", "msg_0002"), summaryMsg("msg_0003d", "msg_0003c", "s")];
    expect(ids(modelView(history))).toEqual(["msg_0003c", "msg_0003d", "msg_0002a", "msg_0002b", "msg_0003a", "msg_0003b"]);
  });

  it("shows nothing of the tail when it starts at or after the compaction", () => {
    const history = [...turns(1, 2), compactionMsg("msg_0002c", "msg_0009"), summaryMsg("msg_0002d", "msg_0002c", "s")];
    expect(ids(modelView(history))).toEqual(["msg_0002c", "msg_0002d"]);
  });

  it("uses only the latest active compaction of several and drops a failed one in between", () => {
    const history = [
      ...turns(1, 2),
      compactionMsg("msg_0002c", "msg_0002a"),
      summaryMsg("msg_0002d", "msg_0002c", "first summary"),
      ...turns(3, 4),
      compactionMsg("msg_0004c", "msg_0004a"),
      summaryMsg("msg_0004d", "msg_0004c", "", { error: { name: "ProviderError", message: "500" } }),
      ...turns(5, 6),
      compactionMsg("msg_0006c", "msg_0004a"),
      summaryMsg("msg_0006d", "msg_0006c", "second summary"),
      ...turns(7, 7),
      compactionMsg("msg_0007c"),
      summaryMsg("msg_0007d", "msg_0007c", "aborted half", { error: { name: "AbortedError", message: "x" } }),
    ];
    expect(ids(modelView(history))).toEqual([
      "msg_0006c",
      "msg_0006d",
      "msg_0004a",
      "msg_0004b",
      // the failed compaction msg_0004c and its attempt msg_0004d fall in the tail and are left out
      "msg_0005a",
      "msg_0005b",
      "msg_0006a",
      "msg_0006b",
      "msg_0007a",
      "msg_0007b",
      // the aborted compaction after it is left out too
    ]);
  });

  it.each<[string, MessageWithParts[]]>([
    ["no summary yet", []],
    ["an unfinished summary", [summaryMsg("msg_0002d", "msg_0002c", "half", { time: { created: 2 } })]],
    ["a failed summary", [summaryMsg("msg_0002d", "msg_0002c", "x", { error: { name: "ProviderError", message: "500" } })]],
    ["an empty summary", [summaryMsg("msg_0002d", "msg_0002c", "  \n")]],
    ["an answer not marked as a summary", [assistantMsg("msg_0002d", "msg_0002c", [{ type: "text", text: "hi" }])]],
  ])("leaves out a compaction with %s and its attempts, showing the whole history", (_, attempts) => {
    const history = [...turns(1, 2), compactionMsg("msg_0002c", "msg_0002a"), ...attempts, ...turns(3, 3)];
    expect(ids(modelView(history))).toEqual(["msg_0001a", "msg_0001b", "msg_0002a", "msg_0002b", "msg_0003a", "msg_0003b"]);
  });

  it("keeps the summary attempt that succeeded after a failed one", () => {
    const history = [
      ...turns(1, 1),
      compactionMsg("msg_0001c"),
      summaryMsg("msg_0001d", "msg_0001c", "x", { error: { name: "ProviderError", message: "overloaded" } }),
      summaryMsg("msg_0001e", "msg_0001c", "the summary"),
      ...turns(2, 2),
    ];
    expect(ids(modelView(history))).toEqual(["msg_0001c", "msg_0001e", "msg_0002a", "msg_0002b"]);
  });

  it("keeps user text sent with the compaction message", () => {
    const c = userMsg("msg_0001c", "keep the API stable", [{ type: "compaction", auto: false }]);
    const history = [...turns(1, 1), c, summaryMsg("msg_0001d", "msg_0001c", "s")];
    expect(toModelMessages(modelView(history))[0]).toEqual({
      role: "user",
      content: [
        { type: "text", text: "keep the API stable" },
        { type: "text", text: COMPACTION_PROMPT },
      ],
    });
  });

  it("leaves out of the tail an answer a compaction interrupted and its request, which is replayed after the summary", () => {
    const [question, partial] = turn(3, [4_000]);
    partial!.info = { ...(partial!.info as AssistantMessage), finish: "compacted" };
    const history = [
      ...turns(1, 2),
      question!,
      partial!,
      compactionMsg("msg_0003c", "msg_0002a"),
      summaryMsg("msg_0003d", "msg_0003c", "Goal: ship"),
      userMsg("msg_0003e", "question 3"), // the replay
      assistantMsg("msg_0003f", "msg_0003e", [{ type: "text", text: "answer 3" }]),
    ];
    expect(ids(modelView(history))).toEqual(["msg_0003c", "msg_0003d", "msg_0002a", "msg_0002b", "msg_0003e", "msg_0003f"]);
  });

  it("gives toModelMessages a valid alternation: the compaction prompt, the summary, the tail, the rest", () => {
    const history = [...turns(1, 3)];
    // room for turn 2 only, ending before turn 3 (the request replayed after compaction)
    const tail = selectTail(modelView(history), { budgetTokens: estimateMessagesTokens(turn(2, [40])), before: "msg_0003a" });
    expect(tail).toBe("msg_0002a");
    history.push(compactionMsg("msg_0003c", tail), summaryMsg("msg_0003d", "msg_0003c", "Goal: ship"), ...turns(4, 4));
    const messages = toModelMessages(modelView(history));
    expect(messages.map((m) => m.role)).toEqual([
      "user", // C: the compaction prompt
      "assistant", // S: the summary
      "user", // tail: question 2
      "assistant",
      "tool",
      "user", // tail: question 3
      "assistant",
      "tool",
      "user", // after the summary: question 4
      "assistant",
      "tool",
    ]);
    expect(messages[0]).toEqual({ role: "user", content: [{ type: "text", text: COMPACTION_PROMPT }] });
    expect(messages[1]).toEqual({ role: "assistant", content: [{ type: "text", text: "Goal: ship" }] });
    expect(messages[2]).toEqual({ role: "user", content: [{ type: "text", text: "question 2" }] });
    expect(messages[8]).toEqual({ role: "user", content: [{ type: "text", text: "question 4" }] });
    // every tool call is followed by its result
    for (let i = 0; i < messages.length; i++) {
      const m = messages[i]!;
      if (m.role === "assistant" && Array.isArray(m.content) && m.content.some((c) => c.type === "tool-call")) {
        expect(messages[i + 1]?.role).toBe("tool");
      }
    }
  });
});
