import { describe, expect, it } from "vitest";
import { emptyTokens, type MessageWithParts, type Part, type TokenUsage } from "@lathe/message";
import { inputLimit, isOverflow, needsCompaction, nextRequestEstimate, usableContext } from "./overflow.js";

const tokens = (input: number, output = 0, read = 0, write = 0, reasoning = 0): TokenUsage => ({ input, output, reasoning, cache: { read, write } });

let n = 0;
const id = (prefix: string) => `${prefix}_${String(++n).padStart(6, "0")}`;
function user(text: string): MessageWithParts {
  const mid = id("msg");
  return { info: { id: mid, sessionID: "s", role: "user", time: { created: 0 }, agent: "build" }, parts: [{ id: id("prt"), sessionID: "s", messageID: mid, type: "text", text }] };
}
function assistant(parts: Array<Record<string, unknown>>, extra: Record<string, unknown> = {}): MessageWithParts {
  const mid = id("msg");
  return {
    info: { id: mid, sessionID: "s", role: "assistant", parentID: "x", time: { created: 0, completed: 1 }, providerID: "p", modelID: "m", agent: "build", cwd: "/", tokens: emptyTokens(), cost: 0, ...extra },
    parts: parts.map((p) => ({ id: id("prt"), sessionID: "s", messageID: mid, ...p }) as Part),
  } as MessageWithParts;
}
const finish = (t: TokenUsage) => ({ type: "step-finish", reason: "stop", tokens: t, cost: 0 });

describe("overflow", () => {
  it("reserves the output limit, at most 20,000 tokens", () => {
    expect(usableContext({ contextWindow: 200_000, maxOutputTokens: 64_000 })).toBe(180_000);
    expect(usableContext({ contextWindow: 100_000, maxOutputTokens: 8_000 })).toBe(92_000);
    expect(usableContext({ contextWindow: 100_000 })).toBe(80_000);
    expect(usableContext({ contextWindow: 100_000, maxOutputTokens: 64_000 }, 4_000)).toBe(96_000);
    expect(usableContext({ maxOutputTokens: 8_000 })).toBeUndefined();
  });

  it("never lets a request past the model's input cap, whatever room the window leaves", () => {
    expect(usableContext({ contextWindow: 400_000, maxOutputTokens: 128_000, maxInputTokens: 272_000 })).toBe(272_000);
    expect(usableContext({ contextWindow: 400_000, maxOutputTokens: 128_000, maxInputTokens: 390_000 })).toBe(380_000);
    expect(usableContext({ maxInputTokens: 100_000 })).toBe(100_000);
    expect(inputLimit({ contextWindow: 400_000, maxInputTokens: 272_000 })).toBe(272_000);
    expect(inputLimit({ contextWindow: 200_000 })).toBe(200_000);
    expect(inputLimit({ maxInputTokens: 50_000 })).toBe(50_000);
    expect(inputLimit({})).toBeUndefined();
  });

  it("overflows exactly at the usable window, counting cache reads, writes and reasoning", () => {
    expect(isOverflow(tokens(50_000, 10_000, 20_000, 10_000, 2_000), 92_000)).toBe(true);
    expect(isOverflow(tokens(50_000, 10_000, 20_000, 10_000, 1_999), 92_000)).toBe(false);
    expect(isOverflow(tokens(1e9), undefined)).toBe(false);
  });

  it("decides from the last step's tokens, or from an estimate that would not fit the window at all", () => {
    const view = [user("hi"), assistant([{ type: "step-start" }, { type: "text", text: "ok" }, finish(tokens(9_000, 1_000))])];
    expect(needsCompaction(view, "", 10_000, 12_000)).toBe(true);
    expect(needsCompaction(view, "", 10_001, 12_000)).toBe(false);
    // A huge new prompt after a small step: estimated over the whole window.
    const huge = [...view, user("x".repeat(4 * 3_000))];
    expect(needsCompaction(huge, "", 20_000, 12_000)).toBe(true);
    expect(nextRequestEstimate(huge, "")).toBeGreaterThanOrEqual(13_000);
  });

  it("ignores steps counted before the active summary", () => {
    // The verbatim tail is older than the compaction that shows it after the summary.
    const old = assistant([{ type: "step-start" }, finish(tokens(500_000))]);
    const compactionUser = user("");
    compactionUser.parts = [{ id: id("prt"), sessionID: "s", messageID: compactionUser.info.id, type: "compaction", auto: true }];
    const summary = assistant([{ type: "step-start" }, { type: "text", text: "summary" }, finish(tokens(400_000))], { summary: true, agent: "compaction" });
    const view = [compactionUser, summary, old, user("next")];
    // Neither the tail's old step nor the summary's own request count: the view is estimated instead.
    expect(needsCompaction(view, "system", 10_000, 12_000)).toBe(false);
    expect(nextRequestEstimate(view, "")).toBeLessThan(100);
  });
});
