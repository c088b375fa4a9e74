import { describe, expect, it } from "vitest";
import type { AssistantMessage, UserMessage } from "./message.js";
import type { MessageWithParts } from "./message-with-parts.js";
import type { Part, ToolState } from "./part.js";
import { COMPACTED_TOOL_RESULT, INTERRUPTED_TOOL_RESULT, toModelMessages } from "./to-model-messages.js";
import { emptyTokens } from "./usage.js";

const sessionID = "ses_1";
const model = { providerID: "anthropic", modelID: "claude" };
let counter = 0;
const pid = () => `prt_${String(++counter).padStart(4, "0")}`;

function user(id: string, parts: Array<Record<string, unknown>>): MessageWithParts {
  const info: UserMessage = { id, sessionID, role: "user", time: { created: 1 }, agent: "build" };
  return { info, parts: parts.map((p) => ({ id: pid(), sessionID, messageID: id, ...p }) as Part) };
}

function assistant(id: string, parts: Array<Record<string, unknown>>, extra: Partial<AssistantMessage> = {}): MessageWithParts {
  const info: AssistantMessage = {
    id,
    sessionID,
    role: "assistant",
    parentID: "msg_u",
    time: { created: 2, completed: 3 },
    providerID: "anthropic",
    modelID: "claude",
    agent: "build",
    cwd: "/w",
    tokens: emptyTokens(),
    cost: 0,
    ...extra,
  };
  return { info, parts: parts.map((p) => ({ id: pid(), sessionID, messageID: id, ...p }) as Part) };
}

const completed = (output: string, extra: Record<string, unknown> = {}): ToolState => ({
  status: "completed",
  input: { path: "a.ts" },
  output,
  title: "t",
  metadata: {},
  time: { start: 1, end: 2, ...extra },
});

describe("toModelMessages", () => {
  it("sends synthetic text and skips ignored text", () => {
    const out = toModelMessages([
      user("msg_u", [
        { type: "text", text: "fix it" },
        { type: "text", text: "Called the read tool", synthetic: true },
        { type: "text", text: "internal note", ignored: true },
      ]),
    ]);
    expect(out).toEqual([
      { role: "user", content: [{ type: "text", text: "fix it" }, { type: "text", text: "Called the read tool" }] },
    ]);
  });

  it("drops assistant messages that failed before producing anything", () => {
    const out = toModelMessages([
      user("msg_u", [{ type: "text", text: "hi" }]),
      assistant("msg_a", [{ type: "step-start" }], { error: { name: "ProviderError", message: "500" } }),
    ]);
    expect(out.map((m) => m.role)).toEqual(["user"]);
  });

  it("keeps what a failed assistant message produced", () => {
    const out = toModelMessages([
      assistant("msg_a", [{ type: "step-start" }, { type: "text", text: "partial" }], { error: { name: "AbortedError", message: "x" } }),
    ]);
    expect(out).toEqual([{ role: "assistant", content: [{ type: "text", text: "partial" }] }]);
  });

  it("gives every tool call a result; unfinished calls get an interrupted error result", () => {
    const out = toModelMessages([
      assistant("msg_a", [
        { type: "step-start" },
        { type: "tool", callID: "c1", tool: "read", state: { status: "pending", input: {}, raw: "{" } },
        { type: "tool", callID: "c2", tool: "read", state: { status: "running", input: { path: "b" }, time: { start: 1 } } },
        { type: "tool", callID: "c3", tool: "read", state: { status: "error", input: { path: "c" }, error: "ENOENT", time: { start: 1, end: 2 } } },
      ]),
    ]);
    expect(out).toHaveLength(2);
    expect(out[1]).toEqual({
      role: "tool",
      content: [
        { type: "tool-result", toolCallId: "c1", toolName: "read", output: { type: "error-text", value: INTERRUPTED_TOOL_RESULT } },
        { type: "tool-result", toolCallId: "c2", toolName: "read", output: { type: "error-text", value: INTERRUPTED_TOOL_RESULT } },
        { type: "tool-result", toolCallId: "c3", toolName: "read", output: { type: "error-text", value: "ENOENT" } },
      ],
    });
  });

  it("replaces compacted tool outputs with a marker", () => {
    const out = toModelMessages([
      assistant("msg_a", [
        { type: "tool", callID: "c1", tool: "read", state: completed("a".repeat(10_000), { compacted: 5 }) },
        { type: "tool", callID: "c2", tool: "read", state: completed("kept") },
      ]),
    ]);
    expect(out[1]).toMatchObject({
      content: [{ output: { type: "text", value: COMPACTED_TOOL_RESULT } }, { output: { type: "text", value: "kept" } }],
    });
  });

  it("splits an assistant message at step boundaries: assistant, tool, assistant", () => {
    const out = toModelMessages([
      assistant("msg_a", [
        { type: "step-start" },
        { type: "text", text: "reading" },
        { type: "tool", callID: "c1", tool: "read", state: completed("content") },
        { type: "step-finish", reason: "tool-calls", tokens: emptyTokens(), cost: 0 },
        { type: "step-start" },
        { type: "text", text: "done" },
      ]),
    ]);
    expect(out.map((m) => m.role)).toEqual(["assistant", "tool", "assistant"]);
    expect(out[0]).toEqual({
      role: "assistant",
      content: [
        { type: "text", text: "reading" },
        { type: "tool-call", toolCallId: "c1", toolName: "read", input: { path: "a.ts" } },
      ],
    });
  });

  it("replays reasoning and provider metadata only to the model that produced them", () => {
    const msg = assistant("msg_a", [
      { type: "reasoning", text: "thinking", time: { start: 1, end: 2 }, providerMetadata: { anthropic: { signature: "sig" } } },
      { type: "text", text: "answer", providerMetadata: { anthropic: { id: "x" } } },
    ]);
    const same = toModelMessages([msg], { model });
    expect(same).toEqual([
      {
        role: "assistant",
        content: [
          { type: "reasoning", text: "thinking", providerOptions: { anthropic: { signature: "sig" } } },
          { type: "text", text: "answer", providerOptions: { anthropic: { id: "x" } } },
        ],
      },
    ]);
    const other = toModelMessages([msg], { model: { providerID: "openai", modelID: "gpt" } });
    expect(other).toEqual([{ role: "assistant", content: [{ type: "text", text: "answer" }] }]);
    expect(toModelMessages([msg])).toEqual(other);
  });

  it("sends files as file parts, attached text files inline, and leaves referenced text files to their synthetic text", () => {
    const out = toModelMessages([
      user("msg_u", [
        { type: "text", text: "look" },
        { type: "file", mime: "image/png", url: "data:image/png;base64,iVBORw0KGgo=", filename: "a.png" },
        { type: "file", mime: "text/plain", url: "file:///w/a.txt", filename: "a.txt", source: { path: "a.txt" } },
        { type: "file", mime: "text/plain", url: `data:text/plain;base64,${Buffer.from("hello").toString("base64")}`, filename: "b.txt" },
        { type: "file", mime: "image/png", url: "file:///w/c.png", filename: "c.png" },
      ]),
    ]);
    expect(out).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "look" },
          { type: "file", mediaType: "image/png", data: { type: "data", data: "iVBORw0KGgo=" }, filename: "a.png" },
          { type: "text", text: '<file name="b.txt">\nhello\n</file>' },
          { type: "text", text: "[The file c.png was attached but is not readable here.]" },
        ],
      },
    ]);
  });

  it("sends tool attachments as file content of the result", () => {
    const out = toModelMessages([
      assistant("msg_a", [
        {
          type: "tool",
          callID: "c1",
          tool: "read",
          state: { ...completed("Image read"), attachments: [{ mime: "image/png", url: "data:image/png;base64,AAAA" }] } as ToolState,
        },
      ]),
    ]);
    expect(out[1]).toMatchObject({
      content: [
        {
          output: {
            type: "content",
            value: [
              { type: "text", text: "Image read" },
              { type: "file", mediaType: "image/png", data: { type: "data", data: "AAAA" } },
            ],
          },
        },
      ],
    });
  });

  it("stands a compaction part in for the question its summary answers", () => {
    const out = toModelMessages([user("msg_u", [{ type: "compaction", auto: true }])]);
    expect(out).toEqual([{ role: "user", content: [{ type: "text", text: "What did we do so far?" }] }]);
  });
});
