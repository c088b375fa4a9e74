import { describe, expect, it } from "vitest";
import type { Part } from "@lathe/message";
import { isDoomLoop, stableJson } from "./doom-loop.js";

const call = (tool: string, input: Record<string, unknown>): Part =>
  ({ id: "p", sessionID: "s", messageID: "m", type: "tool", callID: "c", tool, state: { status: "completed", input, output: "", title: "", metadata: {}, time: { start: 0, end: 0 } } }) as Part;

describe("doom loop", () => {
  it("fires on the third identical call in a row, key order aside", () => {
    const prev = [call("read", { a: 1, b: 2 }), { id: "x", sessionID: "s", messageID: "m", type: "step-start" } as Part, call("read", { b: 2, a: 1 })];
    expect(isDoomLoop(prev, "read", { a: 1, b: 2 })).toBe(true);
  });
  it("does not fire on two calls or a different call between", () => {
    expect(isDoomLoop([call("read", { a: 1 })], "read", { a: 1 })).toBe(false);
    expect(isDoomLoop([call("read", { a: 1 }), call("read", { a: 2 })], "read", { a: 1 })).toBe(false);
    expect(isDoomLoop([call("read", { a: 1 }), call("grep", { a: 1 })], "read", { a: 1 })).toBe(false);
  });
  it("looks only at the parts before the call's own (later parts of parallel calls do not count)", () => {
    const parts = [call("read", { a: 1 }), call("read", { a: 1 }), call("read", { a: 1 }), call("grep", { a: 1 })];
    expect(isDoomLoop(parts, "read", { a: 1 }, 2)).toBe(true);
    expect(isDoomLoop(parts, "read", { a: 1 }, 1)).toBe(false);
    expect(isDoomLoop(parts, "read", { a: 1 })).toBe(false);
  });
  it("serialises keys in a stable order", () => {
    expect(stableJson({ b: { d: 1, c: 2 }, a: [3] })).toBe('{"a":[3],"b":{"c":2,"d":1}}');
  });
});
