import { describe, expect, it } from "vitest";
import { Message, Part, Session } from "./index.js";

describe("schemas", () => {
  it("accept a valid tool part and reject an unknown state", () => {
    const part = {
      id: "prt_1",
      sessionID: "ses_1",
      messageID: "msg_1",
      type: "tool",
      callID: "c",
      tool: "read",
      state: { status: "running", input: {}, time: { start: 1 } },
    };
    expect(Part.parse(part)).toEqual(part);
    expect(Part.safeParse({ ...part, state: { status: "exploded" } }).success).toBe(false);
  });

  it("keep a compaction part's optional verbatim-tail start and reject a non-string one", () => {
    const part = { id: "prt_1", sessionID: "ses_1", messageID: "msg_2", type: "compaction", auto: true };
    expect(Part.parse(part)).toEqual(part);
    expect(Part.parse({ ...part, tail: "msg_1" })).toEqual({ ...part, tail: "msg_1" });
    expect(Part.safeParse({ ...part, tail: 1 }).success).toBe(false);
  });

  it("reject a message without its role-specific fields", () => {
    expect(Message.safeParse({ id: "m", sessionID: "s", role: "assistant", time: { created: 1 } }).success).toBe(false);
  });

  it("reject a session with negative cost", () => {
    const session = {
      id: "ses_1",
      title: "t",
      directory: "/w",
      time: { created: 1, updated: 1 },
      usage: { tokens: { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } }, cost: -1 },
    };
    expect(Session.safeParse(session).success).toBe(false);
    expect(Session.safeParse({ ...session, usage: { ...session.usage, cost: 0 } }).success).toBe(true);
  });
});
