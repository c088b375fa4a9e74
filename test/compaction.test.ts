import type { LanguageModelV4CallOptions } from "@ai-sdk/provider";
import { APICallError } from "ai";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BudgetExceededError, createAgent, InvalidInputError, REPLAY_NOTE, SUMMARY_PROMPT, type AgentEvent } from "@lathe/core";
import { mockModel, type MockTurn } from "@lathe/mock";
import { COMPACTED_TOOL_RESULT, totalTokens } from "@lathe/message";
import { chunkTool, collect, contextOverflowError, echoTool } from "./helpers.js";

/** The text of the last user message of a model call. */
function lastUserText(call: LanguageModelV4CallOptions): string {
  const last = call.prompt.findLast((m) => m.role === "user");
  if (!last || typeof last.content === "string") return String(last?.content ?? "");
  return last.content.map((p) => (p.type === "text" ? p.text : "")).join("");
}

const isSummaryRequest = (call: LanguageModelV4CallOptions) => lastUserText(call) === SUMMARY_PROMPT;


/** The tokens of the first request of a session with these tools: the fixed cost of every request. */
async function baseTokens(tools: ReturnType<typeof chunkTool>[]): Promise<number> {
  const probe = mockModel([{ text: "ok" }]);
  const agent = createAgent({ model: probe, tools, snapshots: false });
  const session = await agent.sessions.create();
  const result = await agent.prompt(session.id, "Collect all 12 chunks of the data set, one at a time.");
  await agent.close();
  return result.info.tokens.input;
}

describe("compaction", () => {
  it("compacts twice in a long task, keeps every request under the window, and still finishes it", async () => {
    const fetched: number[] = [];
    const tool = chunkTool(fetched);
    const base = await baseTokens([tool]);
    const contextWindow = base + 6_000;
    let summaries = 0;
    const turn = (call: LanguageModelV4CallOptions): MockTurn => {
      if (isSummaryRequest(call)) {
        summaries++;
        return { text: `## Goal\nCollect all 12 chunks.\n## Progress\n- Done: chunks 1-${fetched.length} (summary ${summaries}).\n## Next steps\nFetch chunk ${fetched.length + 1}.` };
      }
      if (fetched.length < 12) return { text: `Fetching chunk ${fetched.length + 1}.`, toolCalls: [{ name: "fetch_chunk", input: { n: fetched.length + 1 } }] };
      return { text: "All 12 chunks collected." };
    };
    const model = mockModel(Array.from({ length: 40 }, () => turn));
    const agent = createAgent({
      model,
      tools: [tool],
      snapshots: false,
      models: { "mock-model": { contextWindow, maxOutputTokens: 1_000 } },
    });
    const session = await agent.sessions.create();
    const { events, result } = await collect(agent.prompt(session.id, "Collect all 12 chunks of the data set, one at a time."));

    expect(result.info.error).toBeUndefined();
    expect(result.parts.some((p) => p.type === "text" && p.text === "All 12 chunks collected.")).toBe(true);
    expect(fetched).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    const compacted = events.filter((e) => e.type === "session.compacted");
    expect(compacted.length).toBe(2);
    expect(compacted.every((e) => e.type === "session.compacted" && e.auto)).toBe(true);

    // Every request the model received stayed under its window (input tokens as the mock counts them).
    const history = await agent.sessions.messages(session.id);
    const steps = history.flatMap((m) => m.parts.flatMap((p) => (p.type === "step-finish" ? [totalTokens(p.tokens)] : [])));
    expect(Math.max(...steps)).toBeLessThan(contextWindow);

    // After a compaction the model sees the summary and the replayed request with its note, not the old tool outputs.
    const afterFirst = model.calls.findIndex((c, i) => i > 0 && !isSummaryRequest(c) && JSON.stringify(c.prompt).includes("(summary 1)"));
    expect(afterFirst).toBeGreaterThan(0);
    const seen = JSON.stringify(model.calls[afterFirst]!.prompt);
    expect(seen).toContain(REPLAY_NOTE.slice(1, 40));
    expect(seen).toContain("Collect all 12 chunks of the data set");
    expect(seen).not.toContain("chunk 1: lorem");

    // Storage keeps everything: every chunk's output, two compaction markers, two summaries.
    const outputs = history.flatMap((m) => m.parts.filter((p) => p.type === "tool" && p.state.status === "completed"));
    expect(outputs).toHaveLength(12);
    expect(history.filter((m) => m.parts.some((p) => p.type === "compaction"))).toHaveLength(2);
    const summaryMessages = history.filter((m) => m.info.role === "assistant" && m.info.summary);
    expect(summaryMessages).toHaveLength(2);
    expect(summaryMessages.every((m) => m.info.role === "assistant" && m.info.agent === "compaction" && !m.info.error)).toBe(true);
    // Messages closed by a compaction say so.
    expect(history.filter((m) => m.info.role === "assistant" && m.info.finish === "compacted")).toHaveLength(2);
    // The summaries' cost is part of the session's.
    const stored = await agent.sessions.get(session.id);
    const sum = history.reduce((n, m) => n + (m.info.role === "assistant" ? totalTokens(m.info.tokens) : 0), 0);
    expect(totalTokens(stored!.usage.tokens)).toBe(sum);
  });

  it("compacts exactly at the threshold and not one token under", async () => {
    for (const [under, expectSummary] of [
      [0, true],
      [1, false],
    ] as const) {
      const usable = 100_000 - 8_000; // window 100k, max output 8k → 8k reserved
      const model = mockModel([
        { toolCalls: [{ name: "echo", input: { text: "x" } }], usage: { input: usable - 500 - under, output: 500 } },
        (call) => (isSummaryRequest(call) ? { text: "## Goal\nEcho x." } : { text: "done" }),
        { text: "done" },
      ]);
      const agent = createAgent({ model, tools: [echoTool()], snapshots: false, models: { "mock-model": { contextWindow: 100_000, maxOutputTokens: 8_000 } } });
      const session = await agent.sessions.create();
      const { events, result } = await collect(agent.prompt(session.id, "echo x"));
      expect(result.info.error).toBeUndefined();
      expect(isSummaryRequest(model.calls[1]!)).toBe(expectSummary);
      expect(events.some((e) => e.type === "session.compacted")).toBe(expectSummary);
      expect(model.calls).toHaveLength(expectSummary ? 3 : 2);
    }
  });

  it("after a compaction mid-turn, the model sees the request once and not the steps that overflowed, earlier turns kept verbatim", async () => {
    const model = mockModel([
      { text: "First answer.", usage: { input: 100, output: 10 } },
      { toolCalls: [{ name: "echo", input: { text: "OVERFLOWING-CALL" } }], usage: { input: 96_000, output: 10 } },
      (call) => (isSummaryRequest(call) ? { text: "## Goal\nsummary" } : { text: "unexpected" }),
      { text: "done" },
    ]);
    const agent = createAgent({ model, tools: [echoTool()], snapshots: false, models: { "mock-model": { contextWindow: 100_000, maxOutputTokens: 4_000 } } });
    const session = await agent.sessions.create();
    await agent.prompt(session.id, "Question one");
    const { result } = await collect(agent.prompt(session.id, "Question two"));
    expect(result.info.error).toBeUndefined();
    expect(isSummaryRequest(model.calls[2]!)).toBe(true);
    const seen = JSON.stringify(model.calls[3]!.prompt);
    expect(seen).toContain("Question one"); // the earlier turn fits the verbatim tail
    expect(seen.split("Question two").length - 1).toBe(1); // only in the replay
    expect(seen).not.toContain("OVERFLOWING-CALL");
  });

  it("reserves at most 20,000 tokens for the answer", async () => {
    const model = mockModel([
      { toolCalls: [{ name: "echo", input: { text: "x" } }], usage: { input: 180_000, output: 0 } },
      (call) => (isSummaryRequest(call) ? { text: "## Goal\nsummary" } : { text: "done" }),
      { text: "done" },
    ]);
    // 200k window, 64k max output → usable 180k, not 136k.
    const agent = createAgent({ model, tools: [echoTool()], snapshots: false, models: { "mock-model": { contextWindow: 200_000, maxOutputTokens: 64_000 } } });
    const session = await agent.sessions.create();
    await agent.prompt(session.id, "go");
    expect(isSummaryRequest(model.calls[1]!)).toBe(true);
  });

  it("prunes old tool outputs first when that frees enough, without a summary", async () => {
    const big = (n: number) => ({ name: "echo", input: { text: `${n}:${"y".repeat(40_000)}` } }); // ~10k tokens of output each
    const script: Array<MockTurn | ((call: LanguageModelV4CallOptions) => MockTurn)> = [];
    // Prompt 1: eight big outputs, cheap steps.
    for (let i = 0; i < 8; i++) script.push({ toolCalls: [big(i)], usage: { input: 1_000, output: 10 } });
    script.push({ text: "ok1", usage: { input: 1_000, output: 10 } });
    // Prompt 2: a short exchange.
    script.push({ text: "ok2", usage: { input: 1_000, output: 10 } });
    // Prompt 3: a step whose tokens reach the usable window (100k − 20k).
    script.push({ toolCalls: [{ name: "echo", input: { text: "small" } }], usage: { input: 85_000, output: 10 } });
    script.push((call) => (isSummaryRequest(call) ? { text: "summary" } : { text: "finished" }));
    const model = mockModel(script);
    const agent = createAgent({ model, tools: [echoTool()], snapshots: false, models: { "mock-model": { contextWindow: 100_000, maxOutputTokens: 20_000 } } });
    const session = await agent.sessions.create();
    await agent.prompt(session.id, "echo a lot");
    await agent.prompt(session.id, "short one");
    const { events, result } = await collect(agent.prompt(session.id, "and now"));
    expect(result.info.error).toBeUndefined();
    expect(result.parts.some((p) => p.type === "text" && p.text === "finished")).toBe(true);
    expect(events.some((e) => e.type === "session.compacted")).toBe(false);
    expect(model.calls.some(isSummaryRequest)).toBe(false);
    // The oldest outputs beyond the newest ~40k tokens were marked, the newest kept; storage keeps all text.
    const history = await agent.sessions.messages(session.id);
    const bigOutputs = history.flatMap((m) => m.parts).filter((p) => p.type === "tool" && p.state.status === "completed" && p.state.output.length > 40_000);
    const marked = bigOutputs.filter((p) => p.type === "tool" && p.state.status === "completed" && p.state.time.compacted !== undefined);
    expect(bigOutputs).toHaveLength(8);
    expect(marked.length).toBeGreaterThanOrEqual(2);
    expect(marked.length).toBeLessThan(8);
    expect(marked.map((p) => p.id)).toEqual(bigOutputs.slice(0, marked.length).map((p) => p.id)); // oldest first
    const last = JSON.stringify(model.calls.at(-1)!.prompt);
    expect(last.split(COMPACTED_TOOL_RESULT).length - 1).toBe(marked.length);
  });

  it("writes summaries with the compaction agent's own model when the host names a cheaper one", async () => {
    const cheap = mockModel([{ text: "## Goal\nEcho x.\n## Next steps\nFinish.", usage: { input: 300, output: 20 } }], { modelId: "cheap-model" });
    const main = mockModel([
      { toolCalls: [{ name: "echo", input: { text: "x" } }], usage: { input: 96_000, output: 10 } },
      { text: "done" },
    ]);
    const agent = createAgent({
      model: main,
      tools: [echoTool()],
      snapshots: false,
      agents: { compaction: { model: cheap } },
      models: { "mock-model": { contextWindow: 100_000, maxOutputTokens: 4_000 } },
      prices: { "cheap-model": { input: 1, output: 1 } },
    });
    const session = await agent.sessions.create();
    const { result } = await collect(agent.prompt(session.id, "echo x"));
    expect(result.info.error).toBeUndefined();
    expect(cheap.calls).toHaveLength(1);
    expect(isSummaryRequest(cheap.calls[0]!)).toBe(true);
    expect(cheap.calls[0]!.tools ?? []).toHaveLength(0);
    expect(main.calls.some(isSummaryRequest)).toBe(false);
    const summary = (await agent.sessions.messages(session.id)).find((m) => m.info.role === "assistant" && m.info.summary);
    expect(summary?.info).toMatchObject({ modelID: "cheap-model", agent: "compaction", cost: 320 / 1e6 });
  });

  it("recognises a provider's context-length error, compacts and sends the step again", async () => {
    const overflow = contextOverflowError();
    const model = mockModel([
      { toolCalls: [{ name: "echo", input: { text: "one" } }] },
      { throwOnStart: overflow },
      (call) => (isSummaryRequest(call) ? { text: "## Goal\nEcho things." } : { text: "unexpected" }),
      { text: "done after compaction" },
    ]);
    const agent = createAgent({ model, tools: [echoTool()], snapshots: false });
    const session = await agent.sessions.create();
    const { events, result } = await collect(agent.prompt(session.id, "echo one, then finish"));
    expect(result.info.error).toBeUndefined();
    expect(result.parts.some((p) => p.type === "text" && p.text === "done after compaction")).toBe(true);
    expect(events.some((e) => e.type === "session.compacted")).toBe(true);
    expect(result.parts.some((p) => p.type === "retry")).toBe(false);
  });

  it("ends the turn with a typed error when the summary itself overflows, without looping", async () => {
    const overflow = () =>
      new APICallError({
        message: "prompt is too long: 250000 tokens > 200000 maximum",
        url: "https://api.anthropic.com/v1/messages",
        requestBodyValues: {},
        statusCode: 400,
        isRetryable: false,
      });
    const model = mockModel([
      { toolCalls: [{ name: "echo", input: { text: "one" } }] },
      { throwOnStart: overflow() },
      { throwOnStart: overflow() }, // the summary request
      { text: "never" },
    ]);
    const agent = createAgent({ model, tools: [echoTool()], snapshots: false });
    const session = await agent.sessions.create();
    const { events, result } = await collect(agent.prompt(session.id, "go"));
    expect(model.calls).toHaveLength(3);
    expect(result.info.error).toMatchObject({ name: "ContextOverflowError" });
    expect(events.some((e) => e.type === "session.compacted")).toBe(false);
    const history = await agent.sessions.messages(session.id);
    const summary = history.find((m) => m.info.role === "assistant" && m.info.summary);
    expect(summary?.info.role === "assistant" && summary.info.error?.name).toBe("ContextOverflowError");
    // A failed summary changes nothing: the next request sees the full history again.
    expect(agent.isBusy(session.id)).toBe(false);
  });

  it("compacts on demand, keeps the latest turn verbatim, and the next prompt sees summary then tail", async () => {
    const model = mockModel([
      { text: "First answer about apples." },
      { text: "Second answer about pears." },
      (call) => (isSummaryRequest(call) ? { text: "## Goal\nTalk fruit. Apples discussed." } : { text: "unexpected" }),
      { text: "Third answer." },
    ]);
    const agent = createAgent({ model, tools: [], snapshots: false, models: { "mock-model": { contextWindow: 20_000, maxOutputTokens: 2_000 } } });
    const session = await agent.sessions.create();
    await agent.prompt(session.id, "Tell me about apples " + "a".repeat(20_000));
    await agent.prompt(session.id, "Tell me about pears");
    const events: AgentEvent[] = [];
    agent.on("session.compacted", (e) => events.push(e));
    const summary = await agent.sessions.compact(session.id);
    expect(summary.info).toMatchObject({ summary: true, agent: "compaction" });
    expect(summary.info.error).toBeUndefined();
    expect(events).toMatchObject([{ type: "session.compacted", auto: false, messageID: summary.info.id }]);
    // Nothing to compact right after a compaction.
    await expect(agent.sessions.compact(session.id)).rejects.toThrow(InvalidInputError);
    await agent.prompt(session.id, "And plums?");
    const seen = model.calls[3]!.prompt;
    const text = JSON.stringify(seen);
    expect(text).toContain("Talk fruit. Apples discussed.");
    expect(text).not.toContain("a".repeat(1_000)); // the long first turn is summarised away
    expect(text).toContain("Tell me about pears"); // the latest turn stays verbatim
    expect(text.indexOf("Talk fruit")).toBeLessThan(text.indexOf("Tell me about pears"));
    expect(text.indexOf("Tell me about pears")).toBeLessThan(text.indexOf("And plums?"));
    const fresh = await agent.sessions.create();
    await expect(agent.sessions.compact(fresh.id)).rejects.toThrow(InvalidInputError);
  });

  it("refuses an on-demand compaction once a budget is reached, and writes nothing", async () => {
    const model = mockModel([{ text: "First answer." }, { text: "Second answer." }]);
    const agent = createAgent({ model, tools: [], snapshots: false, limits: { maxSteps: 5 } });
    const session = await agent.sessions.create({ limits: { maxSteps: 2 } });
    await agent.prompt(session.id, "one");
    await agent.prompt(session.id, "two");
    const before = await agent.sessions.messages(session.id);
    const refused = await agent.sessions.compact(session.id).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(BudgetExceededError);
    expect((refused as BudgetExceededError).hit).toMatchObject({ limit: "maxSteps", scope: "session", max: 2, used: 2 });
    expect(await agent.sessions.messages(session.id)).toEqual(before);
    expect(model.calls).toHaveLength(2);
    expect(agent.isBusy(session.id)).toBe(false);
    await agent.close();
  });

  it("counts the summary's request toward the session's budget", async () => {
    const model = mockModel([
      { text: "First answer." },
      (call) => (isSummaryRequest(call) ? { text: "## Goal\nSay things." } : { text: "unexpected" }),
      { text: "never sent" },
    ]);
    const agent = createAgent({ model, tools: [], snapshots: false });
    const session = await agent.sessions.create({ limits: { maxSteps: 2 } });
    await agent.prompt(session.id, "one");
    await agent.sessions.compact(session.id);
    expect((await agent.sessions.get(session.id))?.usage.steps).toBe(2);
    await expect(agent.sessions.compact(session.id)).rejects.toThrow(InvalidInputError);
    const next = await agent.prompt(session.id, "two");
    expect(next.info.finish).toBe("budget");
    expect(model.calls).toHaveLength(2);
    await agent.close();
  });

  it("leaves a pending revert pending when there is nothing to compact after it", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "lathe-compact-ws-"));
    const dataDir = mkdtempSync(join(tmpdir(), "lathe-compact-data-"));
    try {
      const model = mockModel([{ text: "First answer." }]);
      const agent = createAgent({ model, tools: [], cwd, dataDir });
      const session = await agent.sessions.create();
      await agent.prompt(session.id, "one");
      const [user] = (await agent.sessions.messages(session.id)).filter((m) => m.info.role === "user");
      await agent.sessions.revert(session.id, { messageID: user!.info.id });
      await expect(agent.sessions.compact(session.id)).rejects.toThrow(InvalidInputError);
      expect((await agent.sessions.get(session.id))?.revert?.messageID).toBe(user!.info.id);
      expect(await agent.sessions.messages(session.id)).toHaveLength(2);
      await agent.close();
    } finally {
      rmSync(cwd, { recursive: true, force: true });
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
