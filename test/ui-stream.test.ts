import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { APICallError, readUIMessageStream, type UIMessage } from "ai";
import { describe, expect, it } from "vitest";
import { createAgent, replyToUIApprovals, toUIMessages, toUIMessageStream, type LatheUIMessage, type LatheUIMessageChunk } from "@lathe/core";
import { mockModel, type MockTurn } from "@lathe/mock";
import { builtinTools } from "@lathe/tools";
import { echoTool } from "./helpers.js";

type ToolPartView = { type: string; state: string; toolCallId: string; approval?: { id: string; approved?: boolean; reason?: string }; output?: unknown; errorText?: string };
const toolParts = (message: UIMessage) => message.parts.filter((p) => p.type.startsWith("tool-")) as unknown as ToolPartView[];

function setup(turns: MockTurn[], options: { ask?: boolean } = {}) {
  const cwd = mkdtempSync(join(tmpdir(), "lathe-ui-"));
  const model = mockModel(turns, { chunkSize: 4 });
  const agent = createAgent({
    model,
    cwd,
    snapshots: false,
    tools: [...builtinTools(), echoTool()],
    ...(options.ask ? { agents: { build: { permission: { edit: "ask" } } } } : {}),
  });
  return { agent, cwd, model };
}

/** Reads a UI stream as a client does; `onMessage` sees each state of the message (and may answer approvals). */
async function readAll(stream: ReadableStream<LatheUIMessageChunk>, onMessage?: (message: LatheUIMessage) => Promise<void>) {
  const errors: string[] = [];
  const states: LatheUIMessage[] = [];
  for await (const message of readUIMessageStream<LatheUIMessage>({ stream, onError: (e) => errors.push((e as Error).message) })) {
    states.push(message);
    await onMessage?.(message);
  }
  return { final: states.at(-1)!, states, errors };
}

/** Tees a stream so the chunks can be checked too. */
function withChunks(stream: ReadableStream<LatheUIMessageChunk>) {
  const [a, b] = stream.tee();
  const chunks: LatheUIMessageChunk[] = [];
  const done = (async () => {
    for await (const chunk of b) chunks.push(chunk);
  })();
  return { stream: a, chunks, done };
}

async function stored(agent: ReturnType<typeof createAgent>, sessionID: string) {
  return toUIMessages(await agent.sessions.messages(sessionID));
}

describe("toUIMessageStream", () => {
  it("streams text, reasoning and tool calls that readUIMessageStream assembles into the stored message", async () => {
    const { agent } = setup([
      { reasoning: "I should echo first.", text: "Echoing now.", toolCalls: [{ name: "echo", input: { text: "hi" } }] },
      { reasoning: "That worked.", text: "The echo said hi." },
    ]);
    const session = await agent.sessions.create();
    const run = agent.prompt(session.id, "echo hi");
    const tap = withChunks(toUIMessageStream(run));
    const { final, states, errors } = await readAll(tap.stream);
    await tap.done;
    expect(errors).toEqual([]);
    const { info } = await run;
    expect(final.id).toBe(info.id);
    // It streamed: the text grew over many states, not in one piece at the end.
    const growth = new Set(states.map((m) => m.parts.filter((p) => p.type === "text").map((p) => (p as { text: string }).text).join("")));
    expect(growth.size).toBeGreaterThan(3);
    expect(tap.chunks.filter((c) => c.type === "text-delta").length).toBeGreaterThan(2);
    expect(tap.chunks.filter((c) => c.type === "tool-input-delta").length).toBeGreaterThan(0);
    expect(tap.chunks[0]).toEqual({ type: "start", messageId: info.id });
    expect(tap.chunks.at(-1)).toMatchObject({ type: "finish", finishReason: "stop", messageMetadata: { sessionID: session.id, finish: "stop" } });

    expect(final.parts.map((p) => p.type)).toEqual(["step-start", "reasoning", "text", "tool-echo", "step-start", "reasoning", "text"]);
    const [echo] = toolParts(final);
    expect(echo).toMatchObject({ state: "output-available", output: { title: "echo hi", output: "echo: hi", metadata: { length: 2 } } });
    // The stored history, loaded for a UI, is the same message.
    const history = await stored(agent, session.id);
    expect(history.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(history[0]!.parts).toEqual([{ type: "text", text: "echo hi", state: "done" }]);
    expect(final).toEqual(history[1]);
    await agent.close();
  });

  it("reports a failing tool as output-error and a failing model as an error chunk, like the stored history", async () => {
    const { agent } = setup([
      { text: "Calling a tool that does not exist.", toolCalls: [{ name: "missing_tool", input: {} }] },
      { text: "Half an answ", error: Object.assign(new Error("upstream exploded"), { statusCode: 400 }) },
    ]);
    const session = await agent.sessions.create();
    const run = agent.prompt(session.id, "go");
    const tap = withChunks(toUIMessageStream(run));
    const { final, errors } = await readAll(tap.stream);
    await tap.done;
    const { info } = await run;
    expect(info.error?.message).toContain("upstream exploded");
    expect(errors).toEqual([info.error!.message]);
    expect(tap.chunks.at(-1)).toMatchObject({ type: "finish", finishReason: "error" });
    const [missing] = toolParts(final);
    expect(missing).toMatchObject({ type: "tool-missing_tool", state: "output-error" });
    expect(missing!.errorText).toMatch(/missing_tool/);
    expect(final).toEqual((await stored(agent, session.id))[1]);
    await agent.close();
  });

  it("asks for approval; an approval given from the client side lets the call run, and the history agrees", async () => {
    const { agent, cwd } = setup([{ text: "Writing it.", toolCalls: [{ name: "write", input: { path: "a.txt", content: "hello\n" } }] }, { text: "Written." }], { ask: true });
    const session = await agent.sessions.create();
    const run = agent.prompt(session.id, "write a.txt");
    const tap = withChunks(toUIMessageStream(run));
    let approvalId: string | undefined;
    let whileWaiting: LatheUIMessage[] = [];
    const { final } = await readAll(tap.stream, async (message) => {
      const waiting = toolParts(message).find((p) => p.state === "approval-requested");
      if (!waiting || approvalId) return;
      approvalId = waiting.approval!.id;
      // A UI loaded now shows the same waiting call.
      whileWaiting = toUIMessages(await agent.sessions.messages(session.id), { pending: await agent.permissions.pending(session.id) });
      // What useChat's addToolApprovalResponse leaves in the client's messages, posted back.
      const answered = { ...message, parts: message.parts.map((p) => (p === (waiting as unknown) ? { ...waiting, state: "approval-responded", approval: { id: approvalId, approved: true } } : p)) } as UIMessage;
      expect(await replyToUIApprovals(agent, session.id, [answered])).toEqual({ replied: [approvalId], stale: [] });
      // Sent again (useChat may resend the same messages): nothing is answered twice.
      expect(await replyToUIApprovals(agent, session.id, [answered])).toEqual({ replied: [], stale: [approvalId] });
    });
    await tap.done;
    expect(approvalId).toMatch(/^per_/);
    expect(toolParts(whileWaiting[1]!)[0]).toMatchObject({ type: "tool-write", state: "approval-requested", approval: { id: approvalId } });
    expect(tap.chunks).toContainEqual({ type: "tool-approval-request", approvalId, toolCallId: toolParts(final)[0]!.toolCallId });
    expect(tap.chunks).toContainEqual({ type: "tool-approval-response", approvalId, approved: true });
    const permission = tap.chunks.find((c) => c.type === "data-permission") as { data: { metadata: { diff?: string } }; transient?: boolean };
    expect(permission.transient).toBe(true);
    expect(permission.data.metadata.diff).toContain("+hello");
    expect(toolParts(final)[0]).toMatchObject({ state: "output-available", approval: { id: approvalId, approved: true } });
    expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("hello\n");
    expect(final).toEqual((await stored(agent, session.id))[1]);
    await agent.close();
  });

  it("a rejection from the client side denies the call (with the reason as feedback), and the history agrees", async () => {
    for (const reason of [undefined, "use b.txt instead"]) {
      const { agent, cwd } = setup([{ text: "Writing it.", toolCalls: [{ name: "write", input: { path: "a.txt", content: "x" } }] }, { text: "Fine, I won't." }], { ask: true });
      const session = await agent.sessions.create();
      const run = agent.prompt(session.id, "write a.txt");
      const { final } = await readAll(toUIMessageStream(run), async (message) => {
        const waiting = toolParts(message).find((p) => p.state === "approval-requested");
        if (waiting) await replyToUIApprovals(agent, session.id, [{ id: waiting.approval!.id, approved: false, ...(reason ? { reason } : {}) }]);
      });
      const [write] = toolParts(final);
      expect(write).toMatchObject({ state: "output-denied", approval: { approved: false, ...(reason ? { reason } : {}) } });
      expect(() => readFileSync(join(cwd, "a.txt"))).toThrow();
      const { info } = await run;
      // A plain rejection stops the turn; feedback is read by the model, which answers.
      expect(final.parts.some((p) => p.type === "text" && p.text === "Fine, I won't.")).toBe(reason !== undefined);
      expect(info.error?.name).toBe(reason ? undefined : "RejectedError");
      expect(final).toEqual((await stored(agent, session.id))[1]);
      await agent.close();
    }
  });

  it("takes back a retried request's output with reset-step and tells of the retry in a transient data part", async () => {
    const tooMany = new APICallError({
      message: "HTTP 429",
      url: "https://x.test",
      requestBodyValues: {},
      statusCode: 429,
      responseHeaders: { "retry-after-ms": "10" },
      responseBody: "{}",
      isRetryable: true,
    });
    const { agent } = setup([{ reasoning: "Hmm.", text: "Half an answ", error: tooMany }, { text: "The whole answer." }]);
    const session = await agent.sessions.create();
    const run = agent.prompt(session.id, "go");
    const tap = withChunks(toUIMessageStream(run));
    const { final, states, errors } = await readAll(tap.stream);
    await tap.done;
    expect(errors).toEqual([]);
    expect(tap.chunks.map((c) => c.type)).toContain("reset-step");
    // The half answer was shown while it streamed, and is gone from the final message.
    expect(states.some((m) => m.parts.some((p) => p.type === "text" && p.text.startsWith("Half")))).toBe(true);
    expect(final.parts.filter((p) => p.type === "text").map((p) => (p as { text: string }).text)).toEqual(["The whole answer."]);
    expect(final.parts.map((p) => p.type)).toEqual(["step-start", "text"]);
    expect(tap.chunks).toContainEqual(expect.objectContaining({ type: "data-retry", transient: true, data: expect.objectContaining({ attempt: 1, error: expect.objectContaining({ name: "ProviderError" }) }) }));
    expect(tap.chunks).toContainEqual(expect.objectContaining({ type: "data-status", transient: true, data: expect.objectContaining({ type: "retry" }) }));
    expect(final).toEqual((await stored(agent, session.id))[1]);
    await agent.close();
  });

  it("passes a subagent's approval requests on as transient data-permission parts", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "lathe-ui-"));
    let delegated = false;
    const route = (call: { prompt: unknown }): MockTurn => {
      const prompt = JSON.stringify(call.prompt);
      if (!prompt.includes("delegate please")) {
        // The subagent: write a file (asks), then report.
        return prompt.includes("tool-result") ? { text: "Sub done." } : { toolCalls: [{ name: "write", input: { path: "s.txt", content: "s" } }] };
      }
      if (delegated) return { text: "Parent done." };
      delegated = true;
      return { toolCalls: [{ name: "task", input: { description: "write it", prompt: "write s.txt", subagent: "general" } }] };
    };
    const agent = createAgent({
      model: mockModel(Array.from({ length: 10 }, () => route)),
      cwd,
      snapshots: false,
      permission: { edit: "ask" },
    });
    const session = await agent.sessions.create();
    const run = agent.prompt(session.id, "delegate please");
    const tap = withChunks(toUIMessageStream(run));
    const answered: string[] = [];
    const reading = readAll(tap.stream);
    await expect.poll(() => tap.chunks.find((c) => c.type === "data-permission"), { timeout: 10_000 }).toBeTruthy();
    const asked = tap.chunks.find((c) => c.type === "data-permission") as { id: string; data: { sessionID: string }; transient: boolean };
    expect(asked.data.sessionID).not.toBe(session.id);
    expect(asked.transient).toBe(true);
    answered.push(...(await replyToUIApprovals(agent, session.id, [{ id: asked.id, approved: true }])).replied);
    const { final } = await reading;
    await tap.done;
    expect(answered).toEqual([asked.id]);
    expect(readFileSync(join(cwd, "s.txt"), "utf8")).toBe("s");
    expect(toolParts(final).map((p) => p.type)).toEqual(["tool-task"]);
    expect(final).toEqual((await stored(agent, session.id))[1]);
    await agent.close();
  });

  it("ends an aborted run with an abort chunk and the interrupted finish reason", async () => {
    const { agent } = setup([{ text: "word ".repeat(400) }]);
    const session = await agent.sessions.create();
    const run = agent.prompt(session.id, "talk");
    const tap = withChunks(toUIMessageStream(run));
    const { final } = await readAll(tap.stream, async (message) => {
      if (message.parts.some((p) => p.type === "text" && p.text.length > 20)) run.abort();
    });
    await tap.done;
    expect(tap.chunks.map((c) => c.type)).toContain("abort");
    expect(tap.chunks.at(-1)).toMatchObject({ type: "finish", finishReason: "interrupted", messageMetadata: { finish: "aborted" } });
    expect(final).toEqual((await stored(agent, session.id))[1]);
    await agent.close();
  });

  it("ends with an error chunk when the run cannot start, and answers no approvals it does not know", async () => {
    const { agent } = setup([{ text: "x" }]);
    const run = agent.prompt("ses_missing", "hello");
    const tap = withChunks(toUIMessageStream(run));
    const { errors } = await readAll(tap.stream);
    await tap.done;
    expect(errors.join()).toMatch(/ses_missing/);
    expect(tap.chunks.at(-1)).toEqual({ type: "finish" });
    expect(await replyToUIApprovals(agent, "ses_missing", [{ id: "per_unknown", approved: true }])).toEqual({ replied: [], stale: ["per_unknown"] });
    await agent.close();
  });
});
