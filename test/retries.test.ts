import { APICallError } from "ai";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createAgent, InvalidInputError, type AgentEvent, type Run } from "@lathe/core";
import { mockModel } from "@lathe/mock";
import type { RetryPart } from "@lathe/message";

function httpError(statusCode: number, headers: Record<string, string> = {}, body = "{}"): APICallError {
  return new APICallError({
    message: `HTTP ${statusCode}`,
    url: "https://api.example.test/v1/chat",
    requestBodyValues: {},
    statusCode,
    responseHeaders: headers,
    responseBody: body,
    isRetryable: statusCode === 429 || statusCode >= 500,
  });
}

/** Drives a run under fake timers: time moves on only while the run waits. */
async function settle(run: Run): Promise<{ events: AgentEvent[]; result: Awaited<Run> }> {
  const events: AgentEvent[] = [];
  let done = false;
  const consumed = (async () => {
    for await (const event of run) events.push(event);
    done = true;
  })();
  while (!done) await vi.advanceTimersByTimeAsync(250);
  await consumed;
  return { events, result: await run };
}

function retries(result: Awaited<Run>): RetryPart[] {
  return result.parts.filter((p): p is RetryPart => p.type === "retry");
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"] });
  vi.setSystemTime(new Date("2026-11-22T08:00:00Z"));
});
afterEach(() => {
  vi.useRealTimers();
});

describe("retries", () => {
  it.each([
    ["retry-after-ms", { "retry-after-ms": "1500" }, 1_500],
    ["retry-after in seconds", { "retry-after": "7" }, 7_000],
    ["retry-after as an HTTP date", { "retry-after": new Date(Date.parse("2026-11-22T08:00:12Z")).toUTCString() }, 12_000],
    ["no header: 2 s backoff", {}, 2_000],
  ])("waits as a 429 with %s says, then succeeds", async (_name, headers, expected) => {
    const model = mockModel([{ throwOnStart: httpError(429, headers) }, { text: "Done after the wait." }]);
    const agent = createAgent({ model, tools: [], snapshots: false });
    const session = await agent.sessions.create();
    const start = Date.now();
    const statuses: Array<{ next: number; at: number }> = [];
    agent.on("session.status", (e) => {
      if (e.status.type === "retry") statuses.push({ next: e.status.next, at: Date.now() });
    });
    const { result } = await settle(agent.prompt(session.id, "go"));
    expect(result.info.error).toBeUndefined();
    expect(result.parts.filter((p) => p.type === "text").map((p) => (p.type === "text" ? p.text : ""))).toEqual(["Done after the wait."]);
    expect(statuses).toHaveLength(1);
    expect(statuses[0]!.next - statuses[0]!.at).toBe(expected);
    const [retry] = retries(result);
    expect(retry).toMatchObject({ attempt: 1, error: { name: "ProviderError", data: { statusCode: 429 } } });
    // The second request went out only after the wait.
    expect(model.calls).toHaveLength(2);
    expect(Date.now() - start).toBeGreaterThanOrEqual(expected);
  });

  it("backs off 2, 4, 8, 16 s on 500s and gives up after the cap with the last error", async () => {
    const model = mockModel(Array.from({ length: 5 }, () => ({ throwOnStart: httpError(500) })));
    const agent = createAgent({ model, tools: [], snapshots: false });
    const session = await agent.sessions.create();
    const delays: number[] = [];
    agent.on("session.status", (e) => {
      if (e.status.type === "retry") delays.push(e.status.next - Date.now());
    });
    const { events, result } = await settle(agent.prompt(session.id, "go"));
    expect(delays).toEqual([2_000, 4_000, 8_000, 16_000]);
    expect(model.calls).toHaveLength(5);
    expect(retries(result).map((r) => r.attempt)).toEqual([1, 2, 3, 4]);
    expect(result.info.error).toMatchObject({ name: "ProviderError", data: { statusCode: 500 } });
    expect(events.filter((e) => e.type === "session.error")).toHaveLength(1);
    // Back to busy after each wait, idle at the end.
    const kinds = events.flatMap((e) => (e.type === "session.status" ? [e.status.type] : []));
    expect(kinds.filter((k) => k === "retry")).toHaveLength(4);
    expect(kinds.at(-1)).toBe("idle");
  });

  it("caps the exponential backoff at 30 s and honours a configured cap on attempts", async () => {
    const model = mockModel(Array.from({ length: 7 }, () => ({ throwOnStart: httpError(503) })));
    const agent = createAgent({ model, tools: [], snapshots: false, retry: { maxRetries: 6 } });
    const session = await agent.sessions.create();
    const delays: number[] = [];
    agent.on("session.status", (e) => {
      if (e.status.type === "retry") delays.push(e.status.next - Date.now());
    });
    await settle(agent.prompt(session.id, "go"));
    expect(delays).toEqual([2_000, 4_000, 8_000, 16_000, 30_000, 30_000]);
    expect(model.calls).toHaveLength(7);
  });

  it("does not retry when retries are off, nor errors that are not passing ones", async () => {
    for (const [options, error] of [
      [{ retry: { maxRetries: 0 } }, httpError(503)],
      [{}, httpError(400, {}, '{"error":{"message":"bad request"}}')],
      [{}, httpError(429, {}, '{"error":{"code":"insufficient_quota","message":"You exceeded your current quota"}}')],
      [{}, httpError(400, {}, '{"error":{"code":"context_length_exceeded","message":"maximum context length is 8192 tokens"}}')],
    ] as const) {
      const model = mockModel([{ throwOnStart: error }, { text: "never" }]);
      const agent = createAgent({ model, tools: [], snapshots: false, compaction: { auto: false }, ...options });
      const session = await agent.sessions.create();
      const { result } = await settle(agent.prompt(session.id, "go"));
      expect(model.calls).toHaveLength(1);
      expect(retries(result)).toHaveLength(0);
      expect(result.info.error).toBeDefined();
    }
  });

  it("does not wait out a retry-after longer than maxDelayMs", async () => {
    const model = mockModel([{ throwOnStart: httpError(429, { "retry-after": "3600" }) }, { text: "never" }]);
    const agent = createAgent({ model, tools: [], snapshots: false, retry: { maxDelayMs: 60_000 } });
    const session = await agent.sessions.create();
    const { result } = await settle(agent.prompt(session.id, "go"));
    expect(model.calls).toHaveLength(1);
    expect(result.info.error).toMatchObject({ data: { statusCode: 429 } });
  });

  it("bounds only the provider's retry-after by maxDelayMs, not its own backoff", async () => {
    const model = mockModel([...Array.from({ length: 4 }, () => ({ throwOnStart: httpError(500) })), { text: "Back." }]);
    const agent = createAgent({ model, tools: [], snapshots: false, retry: { maxDelayMs: 5_000 } });
    const session = await agent.sessions.create();
    const { result } = await settle(agent.prompt(session.id, "go"));
    expect(model.calls).toHaveLength(5); // waits of 2, 4, 8 and 16 s, though 8 and 16 exceed maxDelayMs
    expect(result.info.error).toBeUndefined();
  });

  it("stops waiting at once when the run is aborted during the wait", async () => {
    const model = mockModel([{ throwOnStart: httpError(429, { "retry-after": "20" }) }, { text: "never" }]);
    const agent = createAgent({ model, tools: [], snapshots: false });
    const session = await agent.sessions.create();
    const run = agent.prompt(session.id, "go");
    agent.on("session.status", (e) => {
      if (e.status.type === "retry") setTimeout(() => run.abort(), 1_000);
    });
    const started = Date.now();
    const { result } = await settle(run);
    expect(result.info.finish).toBe("aborted");
    expect(result.info.error?.name).toBe("AbortedError");
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(model.calls).toHaveLength(1);
  });

  it("retries a stream that broke off after output without the model seeing that output twice", async () => {
    const reset = Object.assign(new TypeError("terminated"), { cause: Object.assign(new Error("other side closed"), { code: "UND_ERR_SOCKET" }) });
    const model = mockModel([
      { text: "I will look at the fi", error: reset },
      { text: "I will look at the file.", toolCalls: [{ name: "echo", input: { text: "x" } }] },
      { text: "All done." },
    ]);
    const { echoTool } = await import("./helpers.js");
    const agent = createAgent({ model, tools: [echoTool()], snapshots: false });
    const session = await agent.sessions.create();
    const { events, result } = await settle(agent.prompt(session.id, "go"));
    expect(result.info.error).toBeUndefined();
    const texts = result.parts.flatMap((p) => (p.type === "text" ? [p.text] : []));
    expect(texts).toEqual(["I will look at the file.", "All done."]);
    // The broken attempt's text was taken back, and the UI was told.
    const removed = events.filter((e) => e.type === "message.part.removed");
    expect(removed.length).toBeGreaterThanOrEqual(2); // its step-start and its text
    const stored = (await agent.sessions.messages(session.id)).at(-1)!;
    expect(stored.parts.map((p) => p.type)).toEqual(result.parts.map((p) => p.type));
    expect(stored.parts.some((p) => p.type === "text" && p.text === "I will look at the fi")).toBe(false);
    // The third request's history holds the answer once.
    const third = JSON.stringify(model.calls[2]!.prompt);
    expect(third.split("I will look at the fi").length - 1).toBe(1);
  });

  it("rejects malformed retry and compaction options when the agent is created", () => {
    const model = mockModel([]);
    for (const bad of [
      { retry: { maxRetries: -1 } },
      { retry: { maxRetries: 1.5 } },
      { retry: { maxDelayMs: Number.NaN } },
      { retry: { maxRetries: "3" } },
      { retry: { maxRetry: 3 } },
      { retry: 5 },
      { compaction: { auto: "no" } },
      { compaction: { atuo: false } },
    ]) {
      expect(() => createAgent({ model, snapshots: false, ...(bad as object) }), JSON.stringify(bad)).toThrow(InvalidInputError);
    }
    expect(() => createAgent({ model, snapshots: false, retry: { maxRetries: 0, maxDelayMs: 0 }, compaction: { auto: false, prune: false } })).not.toThrow();
  });

  it("retries an overloaded error that arrives as a stream chunk", async () => {
    const overloaded = { type: "error", error: { type: "overloaded_error", message: "Overloaded" } };
    const model = mockModel([{ error: overloaded }, { text: "Back." }]);
    const agent = createAgent({ model, tools: [], snapshots: false });
    const session = await agent.sessions.create();
    const { result } = await settle(agent.prompt(session.id, "go"));
    expect(result.info.error).toBeUndefined();
    expect(retries(result)).toHaveLength(1);
  });
});
