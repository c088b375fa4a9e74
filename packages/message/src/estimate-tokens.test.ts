import { describe, expect, it } from "vitest";
import { estimateMessagesTokens, estimatePartTokens, estimateTokens } from "./estimate-tokens.js";
import type { Part } from "./part.js";
import { turn } from "./test-helpers.js";
import { COMPACTED_TOOL_RESULT, COMPACTION_PROMPT, INTERRUPTED_TOOL_RESULT } from "./to-model-messages.js";

const base = { id: "prt_1", sessionID: "ses_1", messageID: "msg_1" };
const p = (fields: Record<string, unknown>) => ({ ...base, ...fields }) as Part;
const tool = (state: Record<string, unknown>) => p({ type: "tool", callID: "c1", tool: "grep", state });
const done = { status: "completed", title: "t", metadata: {} };
const dataUrl = (mime: string, text: string) => `data:${mime};base64,${Buffer.from(text).toString("base64")}`;

describe("estimateTokens", () => {
  it("is the length divided by four, rounded up", () => {
    expect(estimateTokens("")).toBe(0);
    expect(estimateTokens("a")).toBe(1);
    expect(estimateTokens("abcd")).toBe(1);
    expect(estimateTokens("abcde")).toBe(2);
    expect(estimateTokens("x".repeat(4_000))).toBe(1_000);
  });
});

describe("estimatePartTokens", () => {
  it("counts text and reasoning, but not text the model never sees", () => {
    expect(estimatePartTokens(p({ type: "text", text: "x".repeat(40) }))).toBe(10);
    expect(estimatePartTokens(p({ type: "text", text: "x".repeat(40), ignored: true }))).toBe(0);
    expect(estimatePartTokens(p({ type: "reasoning", text: "x".repeat(9), time: { start: 1 } }))).toBe(3);
  });

  it("counts a tool call's name, input JSON and output", () => {
    const input = { pattern: "abc" }; // {"pattern":"abc"} is 17 characters → 5 tokens
    const part = tool({ ...done, input, output: "x".repeat(400), time: { start: 1, end: 2 } });
    expect(estimatePartTokens(part)).toBe(1 + 5 + 100);
  });

  it("counts the marker, not the output, once the output was compacted", () => {
    const part = tool({ ...done, input: {}, output: "x".repeat(4_000), time: { start: 1, end: 2, compacted: 3 } });
    expect(estimatePartTokens(part)).toBe(1 + 1 + estimateTokens(COMPACTED_TOOL_RESULT));
  });

  it("counts the error of a failed call and the interrupted marker of an unfinished one", () => {
    expect(estimatePartTokens(tool({ status: "error", input: {}, error: "x".repeat(20), time: { start: 1, end: 2 } }))).toBe(1 + 1 + 5);
    const interrupted = 1 + 1 + estimateTokens(INTERRUPTED_TOOL_RESULT);
    expect(estimatePartTokens(tool({ status: "pending", input: {}, raw: "{" }))).toBe(interrupted);
    expect(estimatePartTokens(tool({ status: "running", input: {}, time: { start: 1 } }))).toBe(interrupted);
  });

  it("counts a tool's attachments with its output", () => {
    const attachments = [{ mime: "image/png", url: "data:image/png;base64,AAAA" }];
    const part = tool({ ...done, input: {}, output: "", attachments, time: { start: 1, end: 2 } });
    expect(estimatePartTokens(part)).toBe(1 + 1 + 1_000);
  });

  it("counts a text file by its decoded size and an image or binary as a flat 1,000", () => {
    const text = "y".repeat(401);
    expect(estimatePartTokens(p({ type: "file", mime: "text/x-python", url: dataUrl("text/x-python", text) }))).toBe(101);
    expect(estimatePartTokens(p({ type: "file", mime: "application/json", url: dataUrl("application/json", "ab") }))).toBe(1);
    expect(estimatePartTokens(p({ type: "file", mime: "text/plain", url: `data:text/plain,${encodeURIComponent("é".repeat(4))}` }))).toBe(2);
    expect(estimatePartTokens(p({ type: "file", mime: "text/plain", url: "data:text/plain,%E0%A4%A%" }))).toBe(3); // malformed escape: its 9 raw characters
    expect(estimatePartTokens(p({ type: "file", mime: "image/png", url: "data:image/png;base64,AAAA" }))).toBe(1_000);
    expect(estimatePartTokens(p({ type: "file", mime: "application/pdf", url: "https://x.test/a.pdf" }))).toBe(1_000);
    expect(estimatePartTokens(p({ type: "file", mime: "text/plain", url: "https://x.test/a.txt" }))).toBe(1_000);
  });

  it("counts nothing for a referenced text file, whose synthetic text carries it, and little for a file: URL", () => {
    const referenced = p({ type: "file", mime: "text/plain", url: dataUrl("text/plain", "z".repeat(4_000)), source: { path: "a.txt" } });
    expect(estimatePartTokens(referenced)).toBe(0);
    expect(estimatePartTokens(p({ type: "file", mime: "image/png", url: "file:///w/a.png" }))).toBe(4);
  });

  it("counts the compaction prompt for a compaction part and the task for a subtask", () => {
    expect(estimatePartTokens(p({ type: "compaction", auto: true }))).toBe(estimateTokens(COMPACTION_PROMPT));
    expect(estimatePartTokens(p({ type: "subtask", prompt: "p", description: "x".repeat(8), agent: "explore" }))).toBe(2 + 2);
  });

  it("counts nothing for step markers, patches, retries and agent mentions", () => {
    const tokens = { input: 5, output: 5, reasoning: 0, cache: { read: 0, write: 0 } };
    expect(estimatePartTokens(p({ type: "step-start" }))).toBe(0);
    expect(estimatePartTokens(p({ type: "step-finish", reason: "stop", tokens, cost: 0 }))).toBe(0);
    expect(estimatePartTokens(p({ type: "patch", hash: "h", files: ["a"] }))).toBe(0);
    expect(estimatePartTokens(p({ type: "retry", attempt: 1, error: { name: "E", message: "m" }, time: { created: 1 } }))).toBe(0);
    expect(estimatePartTokens(p({ type: "agent", name: "explore" }))).toBe(0);
  });
});

describe("estimateMessagesTokens", () => {
  it("sums the parts of all messages", () => {
    const messages = [...turn(1, [400]), ...turn(2, [800, 4])];
    const sum = messages.flatMap((m) => m.parts).reduce((n, part) => n + estimatePartTokens(part), 0);
    expect(estimateMessagesTokens(messages)).toBe(sum);
    // question 1 (3) + read {} (1 + 1) + 100 + answer 1 (2), and likewise for turn 2
    expect(estimateMessagesTokens(turn(1, [400]))).toBe(3 + 2 + 100 + 2);
    expect(estimateMessagesTokens([])).toBe(0);
  });
});
