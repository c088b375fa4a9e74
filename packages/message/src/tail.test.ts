import { describe, expect, it } from "vitest";
import { estimateMessagesTokens } from "./estimate-tokens.js";
import type { MessageWithParts } from "./message-with-parts.js";
import { modelView } from "./model-view.js";
import { InvalidCountError } from "./option-error.js";
import { selectTail, tailBudget } from "./tail.js";
import { assistantMsg, compactionMsg, summaryMsg, turn } from "./test-helpers.js";

const turns = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => turn(from + i, [400])).flat();
const turnTokens = estimateMessagesTokens(turn(1, [400])); // every turn here costs the same

describe("selectTail", () => {
  it("keeps as many whole recent turns as fit the budget", () => {
    const view = turns(1, 5);
    expect(selectTail(view, { budgetTokens: turnTokens })).toBe("msg_0005a");
    expect(selectTail(view, { budgetTokens: 2 * turnTokens })).toBe("msg_0004a");
    expect(selectTail(view, { budgetTokens: 3 * turnTokens - 1 })).toBe("msg_0004a");
    expect(selectTail(view, { budgetTokens: 3 * turnTokens })).toBe("msg_0003a");
    expect(selectTail(view, { budgetTokens: 1_000_000 })).toBe("msg_0001a");
  });

  it("is undefined when not even the latest turn fits, or there is no turn", () => {
    expect(selectTail(turns(1, 5), { budgetTokens: turnTokens - 1 })).toBeUndefined();
    expect(selectTail(turns(1, 5), { budgetTokens: 0 })).toBeUndefined();
    expect(selectTail([], { budgetTokens: 1_000 })).toBeUndefined();
  });

  it("never splits a turn: a long turn's own messages must all fit", () => {
    const view = [...turns(1, 2), assistantMsg("msg_0002x", "msg_0002a", [{ type: "text", text: "x".repeat(400) }])];
    expect(selectTail(view, { budgetTokens: turnTokens })).toBeUndefined();
    expect(selectTail(view, { budgetTokens: turnTokens + 100 })).toBe("msg_0002a");
  });

  it("ends just before `before`", () => {
    const view = turns(1, 5);
    expect(selectTail(view, { budgetTokens: turnTokens, before: "msg_0005a" })).toBe("msg_0004a");
    expect(selectTail(view, { budgetTokens: 2 * turnTokens, before: "msg_0004a" })).toBe("msg_0002a");
    expect(selectTail(view, { budgetTokens: 1_000_000, before: "msg_0001a" })).toBeUndefined();
  });

  it("starts after the active summary: an earlier tail is never kept again", () => {
    const history: MessageWithParts[] = [
      ...turns(1, 3),
      compactionMsg("msg_0003c", "msg_0002a"),
      summaryMsg("msg_0003d", "msg_0003c", "summary"),
      ...turns(4, 5),
    ];
    const view = modelView(history); // [C, S, turn 2, turn 3, turn 4, turn 5]
    expect(selectTail(view, { budgetTokens: 1_000_000 })).toBe("msg_0004a");
    expect(selectTail(view, { budgetTokens: 1_000_000, before: "msg_0004a" })).toBeUndefined();
  });

  it("does not start a tail at a compaction message", () => {
    const view = [...turns(1, 1), compactionMsg("msg_0001c"), assistantMsg("msg_0001d", "msg_0001c", [{ type: "text", text: "a" }])];
    // the compaction message and its answer start no turn; they count toward the budget with turn 1
    expect(selectTail(view, { budgetTokens: 1_000 })).toBe("msg_0001a");
    expect(selectTail(view, { budgetTokens: turnTokens })).toBeUndefined();
  });

  it("rejects a negative or non-number budget", () => {
    expect(() => selectTail(turns(1, 2), { budgetTokens: -1 })).toThrow(InvalidCountError);
    expect(() => selectTail(turns(1, 2), { budgetTokens: Number.NaN })).toThrow(InvalidCountError);
  });
});

describe("tailBudget", () => {
  it("is a quarter of the usable window within 2,000 and 8,000 tokens", () => {
    expect(tailBudget(0)).toBe(2_000);
    expect(tailBudget(8_000)).toBe(2_000);
    expect(tailBudget(8_004)).toBe(2_001);
    expect(tailBudget(20_000)).toBe(5_000);
    expect(tailBudget(32_000)).toBe(8_000);
    expect(tailBudget(180_000)).toBe(8_000);
    expect(tailBudget(Infinity)).toBe(8_000);
  });

  it("rejects a negative or non-number window", () => {
    expect(() => tailBudget(-1)).toThrow(InvalidCountError);
    expect(() => tailBudget(Number.NaN)).toThrow(/usableTokens must be a non-negative number/);
  });
});
