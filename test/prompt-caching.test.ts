import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { createAmazonBedrock } from "@ai-sdk/amazon-bedrock";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import fc from "fast-check";
import { createAgent, type AgentOptions } from "@lathe/core";
import { AnthropicCacheSimulator, billedInput, mockModel } from "@lathe/mock";
import type { UserMessage } from "@lathe/message";
import { cacheBlocks, startFakeAnthropic, type AnthropicTurn, type FakeAnthropicServer } from "./anthropic-server.js";
import { billedUnder, openCodeBreakpoints, runCodingSession, withoutBreakpoints, writeWorkspace } from "../bench/lib/cache-session.ts";
import { finishChunks, startFakeOpenAI, textChunks, toolCallChunks, type FakeOpenAIServer } from "./openai-server.js";

// Prompt caching through the real provider packages against local servers: the request bodies
// carry the breakpoints and keys, and the prefix each request wrote stays byte for byte the same
// in the next one.

let dir: string;
let servers: Array<{ close(): Promise<void> }> = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "lathe-cache-"));
  for (const name of ["a", "b", "c", "d", "e"]) writeFileSync(join(dir, `${name}.ts`), `// ${name}\n${`export const ${name} = ${JSON.stringify("x".repeat(60))};\n`.repeat(40)}`);
  writeFileSync(join(dir, "AGENTS.md"), "Use two-space indents.");
});
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
  rmSync(dir, { recursive: true, force: true });
});

function anthropicModel(url: string, id = "claude-sonnet-4-5") {
  return createAnthropic({ baseURL: url, apiKey: "test-key" })(id);
}

async function fakeAnthropic(script: AnthropicTurn[] | ((body: Record<string, unknown>, index: number) => AnthropicTurn), now?: () => number): Promise<FakeAnthropicServer> {
  const server = await startFakeAnthropic(script, { simulator: new AnthropicCacheSimulator(), ...(now ? { now } : {}) });
  servers.push(server);
  return server;
}

const agentOptions = (model: AgentOptions["model"], extra: Partial<AgentOptions> = {}): AgentOptions => ({
  model,
  cwd: dir,
  dataDir: join(dir, ".data"),
  snapshots: false,
  ...extra,
});

/** How many breakpoints a Messages API body carries. */
function breakpointCount(body: Record<string, unknown>): number {
  return (JSON.stringify(body).match(/"cache_control"/g) ?? []).length;
}

/**
 * Where a request broke the prefix its predecessor wrote: for each pair of consecutive requests,
 * the first block (tools, system, messages; breakpoints themselves ignored) up to the earlier
 * request's last breakpoint that differs in the later one. Empty when every cached byte held.
 */
function prefixBreaks(requests: Array<Record<string, unknown>>, skip: (index: number) => boolean = () => false): Array<{ request: number; block: number }> {
  const out: Array<{ request: number; block: number }> = [];
  for (let i = 1; i < requests.length; i++) {
    if (skip(i)) continue;
    const before = cacheBlocks(requests[i - 1]!);
    const after = cacheBlocks(requests[i]!);
    for (let b = 0; b <= before.lastBreakpoint; b++) {
      if (before.blocks[b] !== after.blocks[b]) {
        out.push({ request: i, block: b });
        break;
      }
    }
  }
  return out;
}

const read = (path: string) => ({ name: "read", input: { path } });

describe("Anthropic: breakpoints through @ai-sdk/anthropic", () => {
  it("marks tools, the stable system prompt and the newest messages; every cached byte holds across steps, turns, a new file, midnight and the last step", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date(2026, 0, 5, 23, 57));
    const server = await fakeAnthropic(
      [
        // Turn 1: three reads, one grep, an answer.
        { text: "Reading.", toolCalls: [read("a.ts")] },
        { toolCalls: [read("b.ts"), read("c.ts")] },
        { toolCalls: [{ name: "grep", input: { pattern: "export" } }] },
        { text: "Done with the first look." },
        // Turn 2 (maxSteps 3): two steps of reads, then the last step answers.
        { toolCalls: [read("d.ts")] },
        { toolCalls: [read("new.ts")] },
        { text: "Summary: read everything." },
      ],
      () => Date.now(),
    );
    const agent = createAgent(agentOptions(anthropicModel(server.url), { prices: { "claude-sonnet-4-5": { input: 3, output: 15, cache: { read: 0.3, write: 3.75 } } } }));
    const session = await agent.sessions.create();
    const first = await agent.prompt(session.id, "Look at the project.");
    expect(first.info.error).toBeUndefined();
    // Between turns: a new file, and midnight passes.
    writeFileSync(join(dir, "new.ts"), "export const fresh = 1;\n");
    vi.setSystemTime(new Date(2026, 0, 6, 0, 1));
    const second = await agent.prompt(session.id, "Now the rest.", { maxSteps: 3 });
    expect(second.info.error).toBeUndefined();
    const bodies = server.requests;
    expect(bodies).toHaveLength(7);

    for (const body of bodies) {
      expect(breakpointCount(body)).toBeLessThanOrEqual(4);
      const tools = body.tools as Array<Record<string, unknown>>;
      expect(tools.at(-1)!.cache_control).toEqual({ type: "ephemeral" });
      expect(tools.slice(0, -1).every((t) => t.cache_control === undefined)).toBe(true);
      const system = body.system as Array<Record<string, unknown>>;
      expect(system[0]!.cache_control).toEqual({ type: "ephemeral" });
      const messages = body.messages as Array<{ content: Array<Record<string, unknown>> }>;
      expect(messages.at(-1)!.content.at(-1)!.cache_control).toEqual({ type: "ephemeral" });
    }
    // Every later request reads what the one before wrote: not one byte before its last breakpoint moved.
    expect(prefixBreaks(bodies)).toEqual([]);
    // The second request also marks where the first ended (the user's prompt), so the last write is read.
    const second1 = bodies[1]!.messages as Array<{ role: string; content: Array<Record<string, unknown>> }>;
    expect(second1[0]!.content.at(-1)!.cache_control).toEqual({ type: "ephemeral" });

    // The last step under maxSteps keeps the same tools and says no call will run.
    expect(bodies[6]!.tools).toEqual(bodies[5]!.tools);
    expect(JSON.stringify((bodies[6]!.messages as unknown[]).at(-1))).toContain("No more tool calls will run");
    // The system prompt never changed; the new day and the new file came as a note in the new prompt only.
    const systems = new Set(bodies.map((b) => JSON.stringify(b.system)));
    expect(systems.size).toBe(1);
    expect(JSON.stringify(bodies[0]!.system)).not.toContain("Date:");
    const turn2Prompt = JSON.stringify((bodies[4]!.messages as unknown[]).at(-1));
    expect(turn2Prompt).toContain("Tue Jan 06 2026");
    expect(turn2Prompt).toContain("new.ts");

    // The simulated bill: from the second request on, most of the prompt is read from the cache.
    for (const usage of server.usages.slice(1)) expect(usage.cacheRead).toBeGreaterThan(usage.total * 0.5);
    // Usage and cost count the reads and writes, and say what the cache saved.
    const stored = (await agent.sessions.get(session.id))!;
    expect(stored.usage.tokens.cache.read).toBe(server.usages.reduce((n, u) => n + u.cacheRead, 0));
    expect(stored.usage.tokens.cache.write).toBe(server.usages.reduce((n, u) => n + u.cacheWrite5m, 0));
    const input = server.usages.reduce((n, u) => n + u.total, 0);
    const billed = server.usages.reduce((n, u) => n + billedInput(u), 0);
    expect(stored.usage.cacheSaved).toBeCloseTo(((input - billed) * 3) / 1e6, 9);
    expect(first.info.cacheSaved! + second.info.cacheSaved!).toBeCloseTo(stored.usage.cacheSaved!, 12);
    const finishes = second.parts.filter((p) => p.type === "step-finish");
    expect(finishes.every((p) => p.type === "step-finish" && typeof p.cacheSaved === "number")).toBe(true);
  });

  it("the prefix check catches any byte changed before the last breakpoint (and none after it)", async () => {
    const server = await fakeAnthropic([{ toolCalls: [read("a.ts")] }, { text: "ok" }]);
    const agent = createAgent(agentOptions(anthropicModel(server.url)));
    const session = await agent.sessions.create();
    await agent.prompt(session.id, "Read a.ts");
    const [first, second] = server.requests as [Record<string, unknown>, Record<string, unknown>];
    expect(prefixBreaks([first, second])).toEqual([]);
    const text = JSON.stringify(second);
    const { blocks, lastBreakpoint } = cacheBlocks(first);
    const cachedLength = blocks.slice(0, lastBreakpoint + 1).join("").length;
    fc.assert(
      fc.property(fc.integer({ min: 0, max: text.length - 1 }), (at) => {
        // Change one character of the second request's body wherever it is part of a block's content.
        const ch = text[at]!;
        if (!/[a-z]/.test(ch)) return;
        let mutated: Record<string, unknown>;
        try {
          mutated = JSON.parse(text.slice(0, at) + (ch === "q" ? "z" : "q") + text.slice(at + 1)) as Record<string, unknown>;
        } catch {
          return;
        }
        // A changed key (not a value) makes another request, not the same one with a changed byte.
        if (shape(mutated) !== shape(second)) return;
        const changed = cacheBlocks(mutated).blocks.findIndex((b, i) => b !== cacheBlocks(second).blocks[i]);
        if (changed < 0) return; // a key outside the blocks (model, max_tokens…)
        const breaks = prefixBreaks([first, mutated]);
        if (changed <= lastBreakpoint) expect(breaks).toEqual([{ request: 1, block: changed }]);
        else expect(breaks).toEqual([]);
      }),
      { numRuns: 200 },
    );
    expect(cachedLength).toBeGreaterThan(0);
  });

  it("places no breakpoint below the model's minimum, honours a model's own minimum, and none at all when caching is off", async () => {
    const server = await fakeAnthropic([{ text: "a" }, { text: "b" }, { text: "c" }]);
    // No tools and a short system prompt: nothing reaches 1,024 tokens.
    const small = createAgent(agentOptions(anthropicModel(server.url), { tools: [] }));
    const s1 = await small.sessions.create();
    await small.prompt(s1.id, "hi");
    expect(breakpointCount(server.requests[0]!)).toBe(0);
    // The same with tools, but the host says this model caches nothing under 200,000 tokens.
    const picky = createAgent(agentOptions(anthropicModel(server.url), { models: { "claude-sonnet-4-5": { cacheMinTokens: 200_000 } } }));
    await picky.prompt((await picky.sessions.create()).id, "hi");
    expect(breakpointCount(server.requests[1]!)).toBe(0);
    // Off: no markers, and the system prompt is one block.
    const off = createAgent(agentOptions(anthropicModel(server.url), { cache: false }));
    await off.prompt((await off.sessions.create()).id, "hi", { system: "Per-prompt rule." });
    expect(breakpointCount(server.requests[2]!)).toBe(0);
    expect(server.requests[2]!.system).toHaveLength(1);
  });

  it("the 1-hour TTL, per-agent and per-prompt overrides, and a host's own cache_control win", async () => {
    const server = await fakeAnthropic(() => ({ text: "ok" }));
    const agent = createAgent(
      agentOptions(anthropicModel(server.url), {
        cache: "1h",
        agents: { quiet: { description: "No caching.", mode: "primary", cache: false } },
      }),
    );
    const session = await agent.sessions.create();
    const one = await agent.prompt(session.id, "one", { system: "Extra for this prompt." });
    const hour = server.requests[0]!;
    // One-hour writes are counted apart and billed at 2× the input price (Sonnet 4.5: $6 per million).
    const written = server.usages[0]!;
    expect(written.cacheWrite1h).toBeGreaterThan(0);
    expect(one.info.tokens.cache).toEqual({ read: 0, write: written.cacheWrite1h, write1h: written.cacheWrite1h });
    expect(one.info.cost).toBeCloseTo((written.input * 3 + written.cacheWrite1h * 6 + one.info.tokens.output * 15) / 1e6, 12);
    expect(JSON.stringify(hour)).toContain('"cache_control":{"type":"ephemeral","ttl":"1h"}');
    expect(JSON.stringify(hour)).not.toContain('"cache_control":{"type":"ephemeral"}');
    // The prompt's own instructions come after the stable system block and its breakpoint.
    const system = hour.system as Array<{ text: string; cache_control?: unknown }>;
    expect(system).toHaveLength(2);
    expect(system[0]!.cache_control).toBeDefined();
    expect(system[1]!.cache_control).toBeUndefined();
    expect(system[1]!.text).toBe("Extra for this prompt.");
    await agent.prompt(session.id, "two", { agent: "quiet" });
    expect(breakpointCount(server.requests[1]!)).toBe(0);
    await agent.prompt(session.id, "three", { agent: "quiet", cache: { enabled: true } });
    expect(JSON.stringify(server.requests[2])).toContain('"ttl":"1h"');
    await agent.prompt(session.id, "four", { cache: { ttl: "5m" } });
    expect(JSON.stringify(server.requests[3])).not.toContain('"ttl":"1h"');
    expect(breakpointCount(server.requests[3]!)).toBeGreaterThan(0);
    // A host that asks for Anthropic's automatic caching itself gets just that.
    const host = createAgent(agentOptions(anthropicModel(server.url), { providerOptions: { anthropic: { cacheControl: { type: "ephemeral" } } } }));
    await host.prompt((await host.sessions.create()).id, "five");
    const own = server.requests[4]!;
    expect(own.cache_control).toEqual({ type: "ephemeral" });
    expect(breakpointCount(own)).toBe(1);
  });

  it("refuses a malformed cache setting where it is given", async () => {
    const model = anthropicModel("http://127.0.0.1:9");
    expect(() => createAgent(agentOptions(model, { cache: "2h" as never }))).toThrow(/cache is invalid/);
    expect(() => createAgent(agentOptions(model, { cache: { ttl: "10m" } as never }))).toThrow(/cache is invalid/);
    expect(() => createAgent(agentOptions(model, { cache: { enabeld: true } as never }))).toThrow(/cache is invalid/);
    expect(() => createAgent(agentOptions(model, { agents: { x: { description: "x", mode: "primary", cache: "yes" as never } } }))).toThrow(/agents\["x"\]\.cache/);
    const agent = createAgent(agentOptions(model));
    const session = await agent.sessions.create();
    expect(() => agent.prompt(session.id, "hi", { cache: { scheme: "magic" } as never })).toThrow(/prompt's cache is invalid/);
  });

  it("a compaction rewrites the prefix once, its summary caches under the same rules, then the prefix holds again", async () => {
    const server = await fakeAnthropic((body) => {
      const last = JSON.stringify((body.messages as unknown[]).at(-1));
      if (last.includes("handover summary")) return { text: "Summary: the user looked at a.ts and b.ts." };
      // A new prompt gets one read, the read's result an answer.
      return last.includes("tool_result") ? { text: "ok" } : { toolCalls: [read(last.includes("second") ? "b.ts" : "a.ts")] };
    });
    const agent = createAgent(agentOptions(anthropicModel(server.url)));
    const session = await agent.sessions.create();
    await agent.prompt(session.id, "first");
    const before = server.requests.length;
    const compacted = await agent.sessions.compact(session.id);
    expect(compacted.info.error).toBeUndefined();
    const summary = server.requests[before]!;
    expect(JSON.stringify((summary.messages as unknown[]).at(-1))).toContain("handover summary");
    expect(breakpointCount(summary)).toBeGreaterThan(0);
    expect(breakpointCount(summary)).toBeLessThanOrEqual(4);
    await agent.prompt(session.id, "second");
    const after = server.requests.slice(before + 1);
    expect(after.length).toBeGreaterThanOrEqual(2);
    // The first request after the compaction starts a new prefix; from then on it holds.
    expect(prefixBreaks(server.requests.slice(0, before))).toEqual([]);
    expect(prefixBreaks(after)).toEqual([]);
    expect(prefixBreaks([server.requests[before - 1]!, after[0]!])).not.toEqual([]);
  });
});

describe("the environment note", () => {
  it("rides on a prompt only when it changed since the one the model last saw, and is stored with it", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date(2026, 2, 1, 10, 0));
    const model = mockModel([{ text: "a" }, { text: "b" }, { text: "c" }]);
    const agent = createAgent(agentOptions(model));
    const session = await agent.sessions.create();
    await agent.prompt(session.id, "one");
    await agent.prompt(session.id, "two");
    writeFileSync(join(dir, "added.ts"), "");
    await agent.prompt(session.id, "three");
    const users = (await agent.sessions.messages(session.id)).filter((m) => m.info.role === "user").map((m) => m.info as UserMessage);
    expect(users[0]!.environment).toContain("Date: Sun Mar 01 2026");
    expect(users[1]!.environment).toBeUndefined();
    expect(users[2]!.environment).toContain("added.ts");
    // The model saw each note after the prompt's own text, and the first one still in the third request.
    const third = JSON.stringify(model.calls[2]!.prompt);
    expect(third.split("<environment>")).toHaveLength(3);
    expect(JSON.stringify(model.calls[1]!.prompt.at(-1))).not.toContain("<environment>");
  });
});

describe("other providers", () => {
  function openaiServer(script: Parameters<typeof startFakeOpenAI>[0]): Promise<FakeOpenAIServer> {
    return startFakeOpenAI(script).then((server) => {
      servers.push(server);
      return server;
    });
  }

  it("OpenAI: a promptCacheKey per session, a subagent and a compaction their own; a host's key wins; off sends none", async () => {
    const server = await openaiServer([
      { kind: "sse", chunks: [...toolCallChunks("call_1", "task", { description: "Look around", prompt: "List the files.", subagent: "explore" }), ...finishChunks("tool_calls")] },
      { kind: "sse", chunks: [...textChunks("There are five files."), ...finishChunks("stop")] },
      { kind: "sse", chunks: [...textChunks("The explorer found five files."), ...finishChunks("stop")] },
      { kind: "sse", chunks: [...textChunks("Summary: five files were counted."), ...finishChunks("stop")] },
      { kind: "sse", chunks: [...textChunks("mine"), ...finishChunks("stop")] },
      { kind: "sse", chunks: [...textChunks("off"), ...finishChunks("stop")] },
    ]);
    const openai = createOpenAI({ baseURL: server.url, apiKey: "test-key" });
    const agent = createAgent(agentOptions(openai.chat("gpt-4o")));
    const session = await agent.sessions.create();
    const result = await agent.prompt(session.id, "How many files?");
    expect(result.info.error).toBeUndefined();
    const keys = server.requests.map((r) => r.prompt_cache_key);
    const child = (await agent.sessions.list()).sessions.find((s) => s.parentID === session.id)!;
    expect(keys.slice(0, 3)).toEqual([session.id, child.id, session.id]);
    // The stable system prompt opens every request, and it is one message (OpenAI caches prefixes itself).
    const systems = server.requests.slice(0, 3).map((r) => (r.messages as Array<{ role: string }>).filter((m) => m.role === "system"));
    expect(systems[0]).toHaveLength(1);
    // A compaction's summary request has a key of its own.
    expect((await agent.sessions.compact(session.id)).info.error).toBeUndefined();
    expect(server.requests[3]!.prompt_cache_key).toBe(`${session.id}/compaction`);
    const host = createAgent(agentOptions(openai.chat("gpt-4o"), { providerOptions: { openai: { promptCacheKey: "tenant-42" } } }));
    await host.prompt((await host.sessions.create()).id, "hi");
    expect(server.requests[4]!.prompt_cache_key).toBe("tenant-42");
    const off = createAgent(agentOptions(openai.chat("gpt-4o"), { cache: false }));
    await off.prompt((await off.sessions.create()).id, "hi");
    expect(server.requests[5]!.prompt_cache_key).toBeUndefined();
    expect(JSON.stringify(server.requests)).not.toContain("cache_control");
  });

  it("OpenAI Responses, Google, Bedrock: each body carries what its provider takes (and nothing it does not)", async () => {
    const server = await openaiServer(Array.from({ length: 4 }, () => ({ kind: "error" as const, status: 400, body: { error: { message: "captured", type: "invalid_request_error" } } })));
    const base = server.url;
    const responses = createAgent(agentOptions(createOpenAI({ baseURL: base, apiKey: "k" }).responses("gpt-5"), { retry: { maxRetries: 0 } }));
    const rs = await responses.sessions.create();
    await responses.prompt(rs.id, "hi");
    expect(server.requests[0]!.prompt_cache_key).toBe(rs.id);

    const google = createAgent(agentOptions(createGoogleGenerativeAI({ baseURL: base, apiKey: "k" })("gemini-2.5-flash"), { retry: { maxRetries: 0 } }));
    await google.prompt((await google.sessions.create()).id, "hi", { system: "Per-prompt rule." });
    const gemini = server.requests[1]!;
    expect(JSON.stringify(gemini)).not.toMatch(/cache_control|cachePoint|cachedContent|prompt_cache_key/);
    // One system instruction: the stable part first, the prompt's own rule last.
    const parts = (gemini.systemInstruction as { parts: Array<{ text: string }> }).parts;
    const system = parts.map((p) => p.text).join("\n");
    expect(system.indexOf("You are Lathe")).toBe(0);
    expect(system.trim().endsWith("Per-prompt rule.")).toBe(true);

    const bedrock = createAmazonBedrock({ baseURL: base, region: "us-east-1", accessKeyId: "a", secretAccessKey: "b" });
    const claude = createAgent(agentOptions(bedrock("us.anthropic.claude-sonnet-4-5-20250929-v1:0"), { retry: { maxRetries: 0 } }));
    await claude.prompt((await claude.sessions.create()).id, "hi");
    const converse = server.requests[2]!;
    const points = JSON.stringify(converse).match(/"cachePoint"/g) ?? [];
    expect(points.length).toBeGreaterThanOrEqual(2);
    expect(points.length).toBeLessThanOrEqual(4);
    expect((converse.system as unknown[]).some((b) => JSON.stringify(b).includes("cachePoint"))).toBe(true);
    const llama = createAgent(agentOptions(bedrock("meta.llama3-70b-instruct-v1:0"), { retry: { maxRetries: 0 } }));
    await llama.prompt((await llama.sessions.create()).id, "hi");
    expect(JSON.stringify(server.requests[3])).not.toContain("cachePoint");
  });

  it("an openai-compatible gateway gets Anthropic-style cache_control when the host names the scheme, none by default", async () => {
    const server = await openaiServer([
      { kind: "sse", chunks: [...textChunks("plain"), ...finishChunks("stop")] },
      { kind: "sse", chunks: [...toolCallChunks("call_1", "read", { path: "a.ts" }), ...finishChunks("tool_calls")] },
      { kind: "sse", chunks: [...textChunks("marked"), ...finishChunks("stop")] },
    ]);
    const gateway = () => createOpenAICompatible({ name: "proxy", baseURL: server.url, includeUsage: true })("claude-sonnet-4-5");
    const plain = createAgent(agentOptions(gateway()));
    await plain.prompt((await plain.sessions.create()).id, "hi");
    expect(JSON.stringify(server.requests[0])).not.toContain("cache_control");
    const marked = createAgent(agentOptions(gateway(), { cache: { scheme: "breakpoints" } }));
    await marked.prompt((await marked.sessions.create()).id, "read a.ts");
    const body = server.requests[2]! as { messages: Array<Record<string, unknown>> };
    const system = body.messages.filter((m) => m.role === "system");
    expect(system[0]!.cache_control).toEqual({ type: "ephemeral" });
    const last = body.messages.at(-1)!;
    expect(last.role).toBe("tool");
    expect(last.cache_control).toEqual({ type: "ephemeral" });
    expect((JSON.stringify(body).match(/"cache_control"/g) ?? []).length).toBeLessThanOrEqual(4);
  });
});

describe("the simulated bill of a scripted 35-step session", () => {
  it("is at most 0.2× the uncached input, and below OpenCode's scheme on the same requests", async () => {
    writeWorkspace(dir);
    const run = await runCodingSession(dir, [12, 12, 11]);
    expect(run.requests).toHaveLength(35);
    // As the fake API billed it while the session ran.
    const uncached = run.usages.reduce((n, u) => n + u.total, 0);
    const billed = run.usages.reduce((n, u) => n + billedInput(u), 0);
    expect(billed / uncached).toBeLessThanOrEqual(0.2);
    // Billed again from the bodies alone: the same figure; OpenCode's marks cost more.
    expect(billedUnder(run.requests, (b) => b).billed).toBeCloseTo(billed, 6);
    expect(billedUnder(run.requests, withoutBreakpoints).billed).toBe(uncached);
    expect(billed).toBeLessThanOrEqual(billedUnder(run.requests, openCodeBreakpoints).billed);
    expect(prefixBreaks(run.requests.map((r) => r.body))).toEqual([]);
  }, 30_000);
});

/** A body's structure: its keys and the kinds of its values, every string left out. */
function shape(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === "string" ? "" : v));
}
