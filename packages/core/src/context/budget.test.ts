import { describe, expect, it } from "vitest";
import { emptyTokens, type Session } from "@lathe/message";
import { BudgetTracker, budgetMessage } from "./budget.js";

function session(overrides: Partial<Session> = {}): Session {
  return {
    id: "ses_1",
    title: "t",
    directory: "/",
    time: { created: 0, updated: 0 },
    usage: { tokens: { ...emptyTokens(), input: 900 }, cost: 0.5, steps: 4 },
    ...overrides,
  };
}

describe("BudgetTracker", () => {
  it("has nothing to say without limits", () => {
    const tracker = new BudgetTracker("ses_1", { session: session() });
    tracker.add({ steps: 1000, tokens: 1e9, cost: 1e6 });
    expect(tracker.reached()).toBeUndefined();
  });

  it("counts a prompt from zero and a session from its totals", () => {
    const tracker = new BudgetTracker("ses_1", { prompt: { maxSteps: 2 }, session: session({ limits: { maxSteps: 6 } }) });
    tracker.add({ steps: 1 });
    expect(tracker.reached()).toBeUndefined();
    tracker.add({ steps: 1 });
    // The session (4 + 2 = 6) and the prompt (2) are both spent; the prompt is reported first.
    expect(tracker.reached()).toEqual({ limit: "maxSteps", scope: "prompt", sessionID: "ses_1", max: 2, used: 2 });
  });

  it("lets a session's own limit replace the agent's for the same figure only", () => {
    const tracker = new BudgetTracker("ses_1", { session: session({ limits: { maxCostUsd: 10 } }), agent: { maxCostUsd: 0.6, maxTokens: 1_000 } });
    tracker.add({ cost: 0.2 });
    expect(tracker.reached()).toBeUndefined();
    tracker.add({ tokens: 100 });
    expect(tracker.reached()).toMatchObject({ limit: "maxTokens", scope: "agent", max: 1_000, used: 1_000 });
  });

  it("counts a child's usage toward its parent, and a stop below stops every turn above", () => {
    const parent = new BudgetTracker("ses_p", { prompt: { maxTokens: 100 }, session: session({ id: "ses_p" }) });
    const child = new BudgetTracker("ses_c", { session: session({ id: "ses_c", usage: { tokens: emptyTokens(), cost: 0 } }) }, parent);
    const sibling = new BudgetTracker("ses_s", { session: session({ id: "ses_s", usage: { tokens: emptyTokens(), cost: 0 } }) }, parent);
    child.add({ tokens: 60 });
    sibling.add({ tokens: 40 });
    const hit = child.reached();
    expect(hit).toMatchObject({ limit: "maxTokens", scope: "prompt", sessionID: "ses_p", used: 100 });
    child.stop(hit!);
    expect(parent.reached()).toEqual(hit);
    expect(sibling.reached()).toEqual(hit);
  });

  it("says what was reached in words", () => {
    expect(budgetMessage({ limit: "maxCostUsd", scope: "session", sessionID: "s", max: 1, used: 1.23456 })).toBe(
      "The session budget was reached (maxCostUsd: $1.2346 of $1); the turn stopped.",
    );
    expect(budgetMessage({ limit: "maxSteps", scope: "prompt", sessionID: "s", max: 3, used: 3 })).toContain("3 of 3 steps");
  });
});
