import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { afterEach, describe, expect, it } from "vitest";
import { createAgent } from "@lathe/core";
import { finishChunks, startFakeOpenAI, textChunks, toolCallChunks, type FakeOpenAIServer } from "./openai-server.js";
import { collect, echoTool } from "./helpers.js";

let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function localModel(url: string) {
  return createOpenAICompatible({ name: "local", baseURL: url, includeUsage: true })("local-model");
}

describe("a real provider package against a local server", () => {
  it("streams text, runs a tool call whose arguments arrive in pieces, and answers", async () => {
    server = await startFakeOpenAI([
      { kind: "sse", chunks: [...textChunks("Checking."), ...toolCallChunks("call_1", "echo", { text: "hello world" }, 5), ...finishChunks("tool_calls")] },
      { kind: "sse", chunks: [...textChunks("It said hello world."), ...finishChunks("stop", { prompt: 40, completion: 6, cached: 16 })] },
    ]);
    const log: string[] = [];
    const agent = createAgent({
      model: localModel(server.url),
      tools: [echoTool(log)],
      prices: { "local-model": { input: 1, output: 2, cache: { read: 0.5 } } },
    });
    const session = await agent.sessions.create();
    const { events, result } = await collect(agent.prompt(session.id, "say hello"));
    expect(result.info.error).toBeUndefined();
    expect(log).toEqual(["hello world"]);
    expect(result.info.providerID).toBe("local");
    expect(result.info.finish).toBe("stop");
    const text = result.parts.flatMap((p) => (p.type === "text" ? [p.text] : []));
    expect(text).toEqual(["Checking.", "It said hello world."]);
    // Tool input deltas streamed as the arguments arrived.
    const inputDeltas = events.filter((e) => e.type === "message.part.updated" && e.part.type === "tool" && e.delta);
    expect(inputDeltas.length).toBeGreaterThanOrEqual(3);
    // Usage: step 1 20 in / 10 out; step 2 24 uncached + 16 cache read / 6 out.
    expect(result.info.tokens).toEqual({ input: 44, output: 16, reasoning: 0, cache: { read: 16, write: 0 } });
    expect(result.info.cost).toBeCloseTo((44 * 1 + 16 * 2 + 16 * 0.5) / 1e6, 12);
    // The second request carried the tool result back in OpenAI's format.
    const second = server.requests[1]!.messages as Array<Record<string, unknown>>;
    expect(second.some((m) => m.role === "tool" && m.tool_call_id === "call_1" && String(m.content).includes("echo: hello world"))).toBe(true);
    const stored = await agent.sessions.get(session.id);
    expect(stored?.usage.tokens.input).toBe(44);
  });

  it("records an HTTP 400 as a provider error on the message", async () => {
    server = await startFakeOpenAI([{ kind: "error", status: 400, body: { error: { message: "bad request: messages malformed", type: "invalid_request_error" } } }]);
    const agent = createAgent({ model: localModel(server.url) });
    const session = await agent.sessions.create();
    const { events, result } = await collect(agent.prompt(session.id, "hi"));
    expect(result.info.error).toMatchObject({ name: "ProviderError", data: { statusCode: 400, isRetryable: false } });
    expect(result.info.error?.message).toContain("bad request");
    expect(events.some((e) => e.type === "session.error")).toBe(true);
    expect(agent.isBusy(session.id)).toBe(false);
  });

  it("records an HTTP 500 as a retryable provider error once retries are spent", async () => {
    server = await startFakeOpenAI([{ kind: "error", status: 500, body: { error: { message: "internal error" } } }]);
    // Retries off: the backoff itself is tested with a fake clock in retries.test.ts.
    const agent = createAgent({ model: localModel(server.url), retry: { maxRetries: 0 } });
    const session = await agent.sessions.create();
    const { result } = await collect(agent.prompt(session.id, "hi"));
    expect(result.info.error).toMatchObject({ name: "ProviderError", data: { statusCode: 500, isRetryable: true } });
  });

  it("finishes cleanly when the stream ends without a finish", async () => {
    server = await startFakeOpenAI([{ kind: "sse", chunks: textChunks("Partial ans"), cut: "end" }]);
    const agent = createAgent({ model: localModel(server.url) });
    const session = await agent.sessions.create();
    const { result } = await collect(agent.prompt(session.id, "hi"));
    expect(result.info.time.completed).toBeGreaterThan(0);
    expect(result.parts.some((p) => p.type === "text" && p.text.startsWith("Partial"))).toBe(true);
    // The next prompt still works.
    await server.close();
    server = await startFakeOpenAI([{ kind: "sse", chunks: [...textChunks("ok"), ...finishChunks("stop")] }]);
    const agent2 = createAgent({ model: localModel(server.url) });
    const s2 = await agent2.sessions.create();
    expect((await agent2.prompt(s2.id, "again")).info.finish).toBe("stop");
  });

  it("retries a 429 after the provider's retry-after-ms, and answers", async () => {
    server = await startFakeOpenAI([
      { kind: "error", status: 429, body: { error: { message: "Rate limit reached", type: "rate_limit_exceeded" } }, headers: { "retry-after-ms": "40" } },
      { kind: "sse", chunks: [...textChunks("Answer after the limit."), ...finishChunks("stop")] },
    ]);
    const agent = createAgent({ model: localModel(server.url) });
    const session = await agent.sessions.create();
    const { events, result } = await collect(agent.prompt(session.id, "hi"));
    expect(result.info.error).toBeUndefined();
    expect(server.requests).toHaveLength(2);
    expect(result.parts.find((p) => p.type === "retry")).toMatchObject({ attempt: 1, error: { data: { statusCode: 429 } } });
    const retry = events.find((e) => e.type === "session.status" && e.status.type === "retry");
    expect(retry).toMatchObject({ status: { attempt: 1, message: expect.any(String) } });
    expect(result.parts.filter((p) => p.type === "text").map((p) => (p.type === "text" ? p.text : ""))).toEqual(["Answer after the limit."]);
  });

  it("retries a stream cut mid-answer, and the retried request does not carry the partial answer", async () => {
    server = await startFakeOpenAI([
      { kind: "sse", chunks: textChunks("Partial ans"), cut: "reset" },
      { kind: "sse", chunks: [...textChunks("Full answer."), ...finishChunks("stop")] },
    ]);
    const agent = createAgent({ model: localModel(server.url) });
    const session = await agent.sessions.create();
    const { events, result } = await collect(agent.prompt(session.id, "hi"));
    expect(result.info.error, JSON.stringify(result.info.error)).toBeUndefined();
    expect(server.requests).toHaveLength(2);
    expect(JSON.stringify(server.requests[1])).not.toContain("Partial");
    expect(result.parts.filter((p) => p.type === "text").map((p) => (p.type === "text" ? p.text : ""))).toEqual(["Full answer."]);
    expect(events.some((e) => e.type === "message.part.removed")).toBe(true);
    const stored = await agent.sessions.messages(session.id);
    expect(JSON.stringify(stored)).not.toContain("Partial ans");
  }, 15_000);

  it("records an error when the connection drops mid-stream and retries are off", async () => {
    server = await startFakeOpenAI([{ kind: "sse", chunks: textChunks("Partial ans"), cut: "reset" }]);
    const agent = createAgent({ model: localModel(server.url), retry: { maxRetries: 0 } });
    const session = await agent.sessions.create();
    const { result } = await collect(agent.prompt(session.id, "hi"));
    const text = result.parts.find((p) => p.type === "text");
    expect(text).toMatchObject({ text: "Partial ans", time: { end: expect.any(Number) } });
    expect(result.info.time.completed).toBeGreaterThan(0);
    expect(result.info.error).toBeDefined();
    expect(agent.isBusy(session.id)).toBe(false);
  });

  it("keeps the cause of a cut stream in the stored error and in the retry status", async () => {
    server = await startFakeOpenAI([
      { kind: "sse", chunks: textChunks("Partial ans"), cut: "reset" },
      { kind: "sse", chunks: textChunks("Partial again"), cut: "reset" },
    ]);
    const agent = createAgent({ model: localModel(server.url), retry: { maxRetries: 1 } });
    const session = await agent.sessions.create();
    const statuses: string[] = [];
    agent.on("session.status", (e) => {
      if (e.status.type === "retry") statuses.push(e.status.message);
    });
    const { result } = await collect(agent.prompt(session.id, "hi"));
    const error = result.info.error!;
    // The SDK's own words say nothing of what happened; the causes do.
    expect(error.message).toMatch(/terminated|other side closed|ECONNRESET|socket/i);
    expect(error.data?.causes).toEqual(expect.arrayContaining([expect.objectContaining({ message: expect.any(String) })]));
    expect(statuses).toHaveLength(1);
    expect(statuses[0]).toMatch(/^Connection lost: .*(terminated|other side closed|ECONNRESET|socket)/i);
    const [stored] = (await agent.sessions.messages(session.id)).filter((m) => m.info.role === "assistant");
    expect(stored!.info.role === "assistant" && stored!.info.error).toEqual(error);
  }, 15_000);
});
