import { describe, expect, it } from "vitest";
import { COMPACTED_TOOL_RESULT, emptyTokens, estimateMessagesTokens, toModelMessages, type MessageWithParts, type Part } from "@lathe/message";
import { fitForSummary, REPLAY_NOTE, replayOf } from "./compaction.js";

let n = 0;
const id = (prefix: string) => `${prefix}_${String(++n).padStart(6, "0")}`;
function user(text: string, extra: Array<Record<string, unknown>> = []): MessageWithParts {
  const mid = id("msg");
  const parts = [{ type: "text", text }, ...extra].map((p) => ({ id: id("prt"), sessionID: "s", messageID: mid, ...p }) as Part);
  return { info: { id: mid, sessionID: "s", role: "user", time: { created: 0 }, agent: "build" }, parts };
}
function answer(output: string): MessageWithParts {
  const mid = id("msg");
  const parts = [
    { type: "step-start" },
    { type: "tool", callID: id("call"), tool: "read", state: { status: "completed", input: { path: "a" }, output, title: "a", metadata: {}, time: { start: 1, end: 2 } } },
    { type: "step-finish", reason: "tool-calls", tokens: emptyTokens(), cost: 0 },
  ].map((p) => ({ id: id("prt"), sessionID: "s", messageID: mid, ...p }) as Part);
  return {
    info: { id: mid, sessionID: "s", role: "assistant", parentID: "x", time: { created: 0, completed: 1 }, providerID: "p", modelID: "m", agent: "build", cwd: "/", tokens: emptyTokens(), cost: 0 },
    parts,
  };
}

describe("fitForSummary", () => {
  const view = [user("first"), answer("a".repeat(40_000)), user("second"), answer("b".repeat(40_000)), user("third"), answer("c".repeat(400))];

  it("passes a history that fits through untouched", () => {
    expect(fitForSummary(view, 1e9)).toBe(view);
  });

  it("clears tool outputs oldest first in the request only, leaving the stored parts alone", () => {
    const fitted = fitForSummary(view, estimateMessagesTokens(view) - 5_000);
    const model = JSON.stringify(toModelMessages(fitted));
    expect(model).toContain(COMPACTED_TOOL_RESULT);
    expect(model).not.toContain("a".repeat(100));
    expect(model).toContain("b".repeat(100)); // one cleared output was enough
    expect(JSON.stringify(view)).toContain("a".repeat(40_000));
    expect(view[1]!.parts[1]).toMatchObject({ state: { time: { end: 2 } } });
    expect((view[1]!.parts[1] as { state: { time: { compacted?: number } } }).state.time.compacted).toBeUndefined();
  });

  it("drops whole turns from the front when clearing outputs is not enough, so the request starts with the user", () => {
    const fitted = fitForSummary(view, 40);
    expect(fitted[0]!.info.role).toBe("user");
    expect(fitted.length).toBeLessThan(view.length);
    expect(fitted.at(-1)!.info.id).toBe(view.at(-1)!.info.id);
  });
});

describe("replayOf", () => {
  it("copies the request's parts with new ids and one note, never stacking notes", () => {
    const request = user("Fix the bug", [{ type: "text", text: "<file>...</file>", synthetic: true }]);
    const once = replayOf(request, "s");
    expect(once.info.id).not.toBe(request.info.id);
    expect(once.parts.map((p) => (p.type === "text" ? p.text : p.type))).toEqual(["Fix the bug", "<file>...</file>", REPLAY_NOTE]);
    expect(once.parts.every((p) => p.messageID === once.info.id && !request.parts.some((q) => q.id === p.id))).toBe(true);
    const twice = replayOf(once, "s");
    expect(twice.parts.filter((p) => p.type === "text" && p.text === REPLAY_NOTE)).toHaveLength(1);
  });
});
