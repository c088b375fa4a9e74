import { describe, expect, it } from "vitest";
import type { MessageWithParts } from "./message-with-parts.js";
import { modelView } from "./model-view.js";
import { InvalidCountError } from "./option-error.js";
import { selectPrunable } from "./prune.js";
import { assistantMsg, compactionMsg, summaryMsg, toolCall, toolParts, turn } from "./test-helpers.js";

// Five turns, each with one 50-token (200-character) tool output.
const fiveTurns = () => [1, 2, 3, 4, 5].flatMap((n) => turn(n, [200]));
const callIDs = (selection: { parts: Array<{ callID: string }> }) => selection.parts.map((p) => p.callID);

describe("selectPrunable", () => {
  it("selects the outputs beyond the newest protectTokens, oldest first, with the tokens they free", () => {
    // newest first: 50, 100 (kept), 150 crosses 100 → turn 3 and older are selected
    const view = fiveTurns();
    const selection = selectPrunable(view, { protectTokens: 100, minimumTokens: 0, protectTurns: 0 });
    expect(callIDs(selection)).toEqual(["c1_0", "c2_0", "c3_0"]);
    expect(selection.tokens).toBe(150);
    expect(selection.parts[0]).toBe(toolParts(view)[0]); // the stored part, for the caller to mark
  });

  it("selects the output that crosses the window", () => {
    const selection = selectPrunable(fiveTurns(), { protectTokens: 120, minimumTokens: 0, protectTurns: 0 });
    expect(callIDs(selection)).toEqual(["c1_0", "c2_0", "c3_0"]); // 100 + 50 = 150 > 120
    expect(callIDs(selectPrunable(fiveTurns(), { protectTokens: 150, minimumTokens: 0, protectTurns: 0 }))).toEqual(["c1_0", "c2_0"]);
  });

  it("prunes when exactly the minimum is freed, and not when one token less would be", () => {
    const options = { protectTokens: 100, protectTurns: 0 };
    expect(selectPrunable(fiveTurns(), { ...options, minimumTokens: 150 }).tokens).toBe(150);
    expect(selectPrunable(fiveTurns(), { ...options, minimumTokens: 151 })).toEqual({ parts: [], tokens: 0 });
  });

  it("counts protected turns' outputs toward the window but never selects them", () => {
    // turns 4 and 5 are protected and fill the window; older ones are selected
    expect(callIDs(selectPrunable(fiveTurns(), { protectTokens: 100, minimumTokens: 0, protectTurns: 2 }))).toEqual(["c1_0", "c2_0", "c3_0"]);
    // turns 3–5 protected even though turn 3 is beyond the window
    expect(callIDs(selectPrunable(fiveTurns(), { protectTokens: 100, minimumTokens: 0, protectTurns: 3 }))).toEqual(["c1_0", "c2_0"]);
    // a window of 0 with the defaults' two turns: only turns 1–3
    expect(callIDs(selectPrunable(fiveTurns(), { protectTokens: 0, minimumTokens: 0 }))).toEqual(["c1_0", "c2_0", "c3_0"]);
    // every turn protected
    expect(selectPrunable(fiveTurns(), { protectTokens: 0, minimumTokens: 0, protectTurns: 5 }).parts).toEqual([]);
    expect(selectPrunable(fiveTurns(), { protectTokens: 0, minimumTokens: 0, protectTurns: Infinity }).parts).toEqual([]);
  });

  it("protects a turn's later assistant messages and does not count a compaction message as a turn", () => {
    const history: MessageWithParts[] = [
      ...turn(1, [200]),
      compactionMsg("msg_0001c"),
      summaryMsg("msg_0001d", "msg_0001c", "summary"),
      ...turn(2, [200]),
      assistantMsg("msg_0002x", "msg_0002a", [toolCall("late", 200)]), // a second answer in turn 2
      ...turn(3, [200]),
    ];
    const view = modelView(history); // [C, S, turn 2, turn 3]
    expect(callIDs(selectPrunable(view, { protectTokens: 0, minimumTokens: 0, protectTurns: 1 }))).toEqual(["c2_0", "late"]);
    expect(selectPrunable(view, { protectTokens: 0, minimumTokens: 0, protectTurns: 2 }).parts).toEqual([]);
  });

  it("stops at the first output already compacted", () => {
    const view = fiveTurns();
    const second = toolParts(view)[1]!;
    if (second.state.status !== "completed") throw new Error("fixture");
    second.state.time.compacted = 1;
    expect(callIDs(selectPrunable(view, { protectTokens: 100, minimumTokens: 0, protectTurns: 0 }))).toEqual(["c3_0"]);
  });

  it("leaves failed and unfinished calls alone and walks parts newest first within a message", () => {
    const view = [
      ...turn(1, [200, 400]),
      assistantMsg("msg_0001x", "msg_0001a", [
        { type: "tool", callID: "err", tool: "bash", state: { status: "error", input: {}, error: "x".repeat(4_000), time: { start: 1, end: 2 } } },
        { type: "tool", callID: "run", tool: "bash", state: { status: "running", input: {}, time: { start: 1 } } },
      ]),
      ...turn(2, [400]),
    ];
    // newest first: c2_0 (100), c1_1 (100) → 200 > 150, c1_0 (50)
    expect(callIDs(selectPrunable(view, { protectTokens: 150, minimumTokens: 0, protectTurns: 0 }))).toEqual(["c1_0", "c1_1"]);
  });

  it("uses 40,000 protected tokens, a 20,000 minimum and two protected turns by default", () => {
    const fifteen = (outputChars: number) => Array.from({ length: 15 }, (_, i) => turn(i + 1, [outputChars])).flat();
    // 4,000-token outputs: the newest ten fill 40,000; turns 1–5 free exactly 20,000
    const selection = selectPrunable(fifteen(16_000));
    expect(selection.parts).toHaveLength(5);
    expect(selection.tokens).toBe(20_000);
    // 3,999-token outputs: turns 1–5 would free 19,995, five tokens under the minimum
    expect(selectPrunable(fifteen(15_996))).toEqual({ parts: [], tokens: 0 });
  });

  it("selects nothing in an empty view or one without tool output", () => {
    expect(selectPrunable([], { minimumTokens: 0 })).toEqual({ parts: [], tokens: 0 });
    expect(selectPrunable([...turn(1), ...turn(2), ...turn(3)], { protectTokens: 0, minimumTokens: 0, protectTurns: 0 })).toEqual({
      parts: [],
      tokens: 0,
    });
  });

  it.each([
    ["protectTokens", { protectTokens: -1 }],
    ["minimumTokens", { minimumTokens: Number.NaN }],
    ["protectTurns", { protectTurns: -2 }],
  ])("rejects a negative or non-number %s", (option, options) => {
    expect(() => selectPrunable(fiveTurns(), options)).toThrow(InvalidCountError);
    try {
      selectPrunable(fiveTurns(), options);
    } catch (error) {
      expect(error).toMatchObject({ name: "InvalidCountError", option });
    }
  });
});
