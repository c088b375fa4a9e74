import { createId, emptyTokens, type Message, type Part, type Session } from "@lathe/message";

// Records for the conformance suite: every field of the schemas filled somewhere, so a round trip
// through an adapter proves it keeps them all.

/** A session; `fields` override the defaults. */
export function makeSession(fields: Partial<Session> = {}): Session {
  const now = Date.now();
  return {
    id: createId("session"),
    title: "a session",
    directory: "/work/project",
    time: { created: now, updated: now },
    usage: { tokens: emptyTokens(), cost: 0 },
    ...fields,
  };
}

/** A session with every optional field set. */
export function makeRichSession(parentID: string): Session {
  const id = createId("session");
  return makeSession({
    id,
    parentID,
    title: "ünïcödé ✓ \"quoted\" \n newline",
    revert: { messageID: createId("message"), partID: createId("part"), snapshot: "abc123", diff: "--- a\n+++ b\n" },
    usage: { tokens: { input: 10, output: 20, reasoning: 3, cache: { read: 4, write: 5 } }, cost: 0.0125 },
    permission: {
      approved: [{ permission: "bash", pattern: "git status*", action: "allow" }],
      pending: [
        {
          id: createId("permission"),
          sessionID: id,
          permission: "edit",
          patterns: ["src/a.ts"],
          always: ["src/*"],
          metadata: { diff: "x", nested: { deep: [1, 2, null] } },
          tool: { messageID: createId("message"), callID: createId("tool") },
          time: { created: 1 },
        },
      ],
    },
    todos: [{ id: "1", content: "write tests", status: "in_progress", priority: "high" }],
    metadata: { host: "test", n: 1.5, flag: false },
  });
}

/** A user message in `sessionID`. */
export function makeUserMessage(sessionID: string, fields: Partial<Extract<Message, { role: "user" }>> = {}): Message {
  return { id: createId("message"), sessionID, role: "user", time: { created: Date.now() }, agent: "build", ...fields };
}

/** A finished assistant message answering `parentID`. */
export function makeAssistantMessage(sessionID: string, parentID: string): Message {
  return {
    id: createId("message"),
    sessionID,
    role: "assistant",
    parentID,
    time: { created: Date.now(), completed: Date.now() + 5 },
    providerID: "mock",
    modelID: "mock-1",
    agent: "build",
    cwd: "/work/project",
    finish: "stop",
    tokens: { input: 1, output: 2, reasoning: 0, cache: { read: 0, write: 0 } },
    cost: 0.001,
    error: { name: "ProviderError", message: "boom", data: { statusCode: 500, isRetryable: true } },
    summary: false,
  };
}

/** A text part of a message. */
export function makeTextPart(sessionID: string, messageID: string, text = "hello", id = createId("part")): Part {
  return { id, sessionID, messageID, type: "text", text };
}

/** One part of every type, for one message. */
export function makeEveryPart(sessionID: string, messageID: string): Part[] {
  const base = () => ({ id: createId("part"), sessionID, messageID });
  const tokens = { input: 1, output: 1, reasoning: 0, cache: { read: 0, write: 0 } };
  return [
    { ...base(), type: "step-start", snapshot: "snap1" },
    { ...base(), type: "text", text: "hi", synthetic: true, ignored: false, time: { start: 1, end: 2 }, providerMetadata: { p: { k: "v" } } },
    { ...base(), type: "reasoning", text: "thinking", time: { start: 1 }, providerMetadata: { anthropic: { signature: "sig" } } },
    { ...base(), type: "file", mime: "image/png", filename: "a.png", url: "data:image/png;base64,AAAA", source: { path: "a.png" } },
    {
      ...base(),
      type: "tool",
      callID: createId("tool"),
      tool: "bash",
      state: {
        status: "completed",
        input: { command: "ls" },
        output: "a\nb",
        title: "ls",
        metadata: { exit: 0 },
        attachments: [{ mime: "text/plain", url: "data:text/plain,x" }],
        time: { start: 1, end: 2, compacted: 3 },
      },
    },
    { ...base(), type: "tool", callID: createId("tool"), tool: "read", state: { status: "pending", input: {}, raw: "{\"pa" } },
    { ...base(), type: "tool", callID: createId("tool"), tool: "read", state: { status: "running", input: { path: "x" }, title: "x", metadata: {}, time: { start: 1 } } },
    { ...base(), type: "tool", callID: createId("tool"), tool: "edit", state: { status: "error", input: { path: "x" }, error: "interrupted", time: { start: 1, end: 2 } } },
    { ...base(), type: "agent", name: "explore", source: { value: "@explore", start: 0, end: 8 } },
    { ...base(), type: "subtask", prompt: "look", description: "look around", agent: "explore" },
    { ...base(), type: "patch", hash: "abc", files: ["a.ts", "b.ts"] },
    { ...base(), type: "compaction", auto: true },
    { ...base(), type: "retry", attempt: 1, error: { name: "ProviderError", message: "overloaded", data: { isRetryable: true } }, time: { created: 1 } },
    { ...base(), type: "step-finish", reason: "stop", snapshot: "snap2", tokens, cost: 0 },
  ];
}
