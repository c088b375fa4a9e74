import { describe, expect, it } from "vitest";
import { createAgent, InvalidInputError, type AgentEvent } from "@lathe/core";
import { mockModel } from "@lathe/mock";
import { collect, echoTool } from "./helpers.js";

const PRICE = { "mock-model": { input: 1, output: 1 } }; // $1 per million tokens: cost = tokens / 1e6

/** A model that calls the echo tool forever, each step reporting 1,000 input and 100 output tokens. */
function busyModel(turns = 50) {
  return mockModel(Array.from({ length: turns }, (_, i) => ({ text: `step ${i}`, toolCalls: [{ name: "echo", input: { text: `${i}` } }], usage: { input: 1_000, output: 100 } })));
}

describe("budgets", () => {
  it("ends a prompt at its step limit with a typed reason and an event, every call answered", async () => {
    const model = busyModel();
    const agent = createAgent({ model, tools: [echoTool()], snapshots: false });
    const session = await agent.sessions.create();
    const { events, result } = await collect(agent.prompt(session.id, "loop", { limits: { maxSteps: 3 } }));
    expect(model.calls).toHaveLength(3);
    expect(result.info.finish).toBe("budget");
    expect(result.info.error).toMatchObject({ name: "BudgetExceededError", data: { limit: "maxSteps", scope: "prompt", max: 3, used: 3 } });
    const hit = events.find((e): e is Extract<AgentEvent, { type: "budget.exceeded" }> => e.type === "budget.exceeded");
    expect(hit?.budget).toMatchObject({ limit: "maxSteps", scope: "prompt", sessionID: session.id });
    expect(hit?.messageID).toBe(result.info.id);
    // No half-written parts: every tool call has a final state, the last one not run.
    const tools = result.parts.filter((p) => p.type === "tool");
    expect(tools.every((p) => p.type === "tool" && (p.state.status === "completed" || p.state.status === "error"))).toBe(true);
    expect(tools.at(-1)).toMatchObject({ state: { status: "error", error: expect.stringContaining("budget") } });
    expect(result.parts.filter((p) => p.type === "text" || p.type === "reasoning").every((p) => "time" in p && p.time?.end !== undefined)).toBe(true);
    expect(agent.isBusy(session.id)).toBe(false);
    // The session still works: the next prompt (without that limit) runs.
    const next = await agent.prompt(session.id, "again", { limits: { maxSteps: 1 } });
    expect(next.info.finish).toBe("budget");
    expect(model.calls).toHaveLength(4);
  });

  it("counts tokens and cost, and stops at the session's limit across prompts", async () => {
    const model = busyModel();
    const agent = createAgent({ model, tools: [echoTool()], snapshots: false, prices: PRICE });
    const session = await agent.sessions.create({ limits: { maxTokens: 5_000 } });
    const first = await agent.prompt(session.id, "loop");
    // 1,100 tokens a step: 5 steps reach 5,500 ≥ 5,000.
    expect(model.calls).toHaveLength(5);
    expect(first.info.error).toMatchObject({ data: { limit: "maxTokens", scope: "session", max: 5_000, used: 5_500 } });
    const stored = await agent.sessions.get(session.id);
    expect(stored?.usage.steps).toBe(5);
    expect(stored?.usage.cost).toBeCloseTo(5_500 / 1e6, 12);
    // The session is spent: the next prompt ends before any request.
    const second = await agent.prompt(session.id, "more");
    expect(model.calls).toHaveLength(5);
    expect(second.info.finish).toBe("budget");
    expect(second.parts.filter((p) => p.type === "step-start")).toHaveLength(0);
  });

  it("applies the agent's limits to every session, a session's own limits over them", async () => {
    const agent = createAgent({ model: busyModel(), tools: [echoTool()], snapshots: false, prices: PRICE, limits: { maxCostUsd: 0.0025 } });
    const a = await agent.sessions.create();
    const resultA = await agent.prompt(a.id, "loop");
    expect(resultA.info.error).toMatchObject({ data: { limit: "maxCostUsd", scope: "agent" } });
    expect(resultA.info.cost).toBeCloseTo(0.0033, 10); // three steps of $0.0011
    const b = await agent.sessions.create({ limits: { maxCostUsd: 0.001 } });
    const resultB = await agent.prompt(b.id, "loop");
    expect(resultB.info.error).toMatchObject({ data: { limit: "maxCostUsd", scope: "session", max: 0.001 } });
    expect(resultB.info.cost).toBeCloseTo(0.0011, 10);
  });

  it("stops the parent cleanly when a subagent's work reaches the parent's budget", async () => {
    const script = [
      // Parent, step 1: start a task.
      { toolCalls: [{ name: "task", input: { description: "dig", prompt: "dig deep", subagent: "general" } }], usage: { input: 1_000, output: 100 } },
      // Child: loops on echo.
      ...Array.from({ length: 20 }, (_, i) => ({ toolCalls: [{ name: "echo", input: { text: `c${i}` } }], usage: { input: 1_000, output: 100 } })),
    ];
    const model = mockModel(script);
    const agent = createAgent({ model, tools: [echoTool()], snapshots: false, agents: { build: { tools: { task: true } } } });
    const session = await agent.sessions.create();
    const { events, result } = await collect(agent.prompt(session.id, "delegate", { limits: { maxSteps: 4 } }));
    // Parent step 1 + 3 child steps = 4: the child stops, then the parent, with no further request.
    expect(model.calls).toHaveLength(4);
    expect(result.info.finish).toBe("budget");
    expect(result.info.error).toMatchObject({ name: "BudgetExceededError", data: { limit: "maxSteps", scope: "prompt", sessionID: session.id } });
    const task = result.parts.find((p) => p.type === "tool" && p.tool === "task");
    expect(task).toMatchObject({ state: { status: "error" } });
    const hits = events.filter((e) => e.type === "budget.exceeded");
    expect(hits.map((e) => e.sessionID)).toContain(session.id);
    expect(hits.length).toBe(2); // the child's turn and the parent's
    const child = (await agent.sessions.list({ parentID: session.id })).sessions[0]!;
    const childMessages = await agent.sessions.messages(child.id);
    expect(childMessages.at(-1)?.info).toMatchObject({ role: "assistant", finish: "budget" });
    expect(agent.isBusy(session.id)).toBe(false);
    expect(agent.isBusy(child.id)).toBe(false);
  });

  it("rolls subagent usage up into the parent session", async () => {
    const model = mockModel([
      { toolCalls: [{ name: "task", input: { description: "look", prompt: "look around", subagent: "explore" } }], usage: { input: 100, output: 10 } },
      { text: "found it", usage: { input: 200, output: 20, cacheRead: 50 } },
      { text: "done", usage: { input: 300, output: 30 } },
    ]);
    const agent = createAgent({ model, snapshots: false, prices: PRICE });
    const session = await agent.sessions.create();
    await agent.prompt(session.id, "explore please");
    const parent = await agent.sessions.get(session.id);
    expect(parent?.usage.tokens).toMatchObject({ input: 600, output: 60, cache: { read: 50, write: 0 } });
    expect(parent?.usage.steps).toBe(3);
    expect(parent?.usage.cost).toBeCloseTo(710 / 1e6, 12);
  });

  it("stops before the next request when a compaction's summary spends what was left", async () => {
    const model = mockModel([
      { toolCalls: [{ name: "echo", input: { text: "x" } }], usage: { input: 96_000, output: 10 } },
      { text: "## Goal\nEcho x.", usage: { input: 50_000, output: 100 } }, // the summary: 146,110 tokens in all
      { text: "never sent" },
    ]);
    const agent = createAgent({ model, tools: [echoTool()], snapshots: false, models: { "mock-model": { contextWindow: 100_000, maxOutputTokens: 4_000 } } });
    const session = await agent.sessions.create();
    const { events, result } = await collect(agent.prompt(session.id, "echo x", { limits: { maxTokens: 120_000 } }));
    expect(events.some((e) => e.type === "session.compacted")).toBe(true);
    expect(model.calls).toHaveLength(2);
    expect(result.info.finish).toBe("budget");
    expect(result.info.error).toMatchObject({ name: "BudgetExceededError", data: { limit: "maxTokens", used: 146_110 } });
    expect(events.filter((e) => e.type === "budget.exceeded")).toHaveLength(1);
  });

  it("rejects malformed limits before anything runs", async () => {
    expect(() => createAgent({ model: mockModel([]), limits: { maxSteps: 0 } })).toThrow(InvalidInputError);
    expect(() => createAgent({ model: mockModel([]), limits: { maxCostUSD: 1 } as never })).toThrow(/maxCostUSD|Unrecognized/);
    const agent = createAgent({ model: mockModel([]), snapshots: false });
    await expect(agent.sessions.create({ limits: { maxTokens: -5 } })).rejects.toThrow(InvalidInputError);
    const session = await agent.sessions.create();
    expect(() => agent.prompt(session.id, "x", { limits: { maxSteps: 1.5 } })).toThrow(InvalidInputError);
  });

  it("rejects a misspelt price at any depth, so a cost is never silently billed at a default", () => {
    const model = mockModel([]);
    const price = { input: 3, output: 15 };
    for (const bad of [
      { models: { m: { price: { ...price, cache: { reads: 0.3 } } } } },
      { models: { m: { price: { ...price, above200k: { ...price, ouput: 22.5 } } } } },
      { models: { m: { price: { ...price, above200K: price } } } },
      { prices: { m: { ...price, cache: { read: 0.3, writes: 3.75 } } } },
    ]) {
      expect(() => createAgent({ model, snapshots: false, ...(bad as object) }), JSON.stringify(bad)).toThrow(InvalidInputError);
    }
    const good = { ...price, cache: { read: 0.3, write: 3.75 }, above200k: { input: 6, output: 22.5 } };
    expect(() => createAgent({ model, snapshots: false, models: { m: { price: good } }, prices: { n: good } })).not.toThrow();
  });
});
