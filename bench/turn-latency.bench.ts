// What Lathe adds to a turn, with a scripted model that answers at once (so every millisecond is
// Lathe's), each figure next to its baseline in the same run:
// - first-token overhead with the defaults (SQLite + snapshots) in a 5,000-file git workspace, on a
//   fresh agent's first prompt and on later prompts, over `streamText` alone;
// - the first snapshot of a 20,000-file git workspace ÷ `git status`;
// - per-step overhead of the defaults over memory storage without snapshots (300 files);
// - a 200-step scripted session ÷ the AI SDK's `ToolLoopAgent` on the same script;
// - a 1,000-step session: its last 100 steps ÷ its first 100;
// - 100,000 deltas streamed through the agent ÷ the AI SDK delivering them.
// The loop figures (session ÷ ToolLoopAgent, last ÷ first steps, streaming) compare the CPU time of
// this process (user + system), not wall time: on a shared, loaded machine wall time mostly measures
// how long a run waited for a core. Figures that involve git (a child process) use wall time.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { isStepCount, streamText, tool, ToolLoopAgent } from "ai";
import { z } from "zod";
import { createAgent, Snapshots, type AgentEvent } from "@lathe/core";
import { mockModel, type MockTurn } from "@lathe/mock";
import { MemoryStorage, SqliteStorage } from "@lathe/storage";
import { defineNoopTool } from "./lib/long-session.ts";
import { committedSourceTree, git } from "./lib/git-workspace.ts";
import { report } from "./lib/report.ts";

const root = mkdtempSync(path.join(tmpdir(), "lathe-bench-turn-"));
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * Medians of `runs` timings of `a` and of `b` (ms, or what they return), taken alternately after a
 * warm-up of each, so that a machine whose load drifts weighs on both alike.
 */
async function paired(a: () => Promise<number>, b: () => Promise<number>, runs: number): Promise<[number, number]> {
  await a();
  await b();
  const as: number[] = [];
  const bs: number[] = [];
  for (let i = 0; i < runs; i++) {
    as.push(await a());
    bs.push(await b());
  }
  return [median(as), median(bs)];
}
const timed = (fn: () => Promise<unknown>) => async () => {
  const start = performance.now();
  await fn();
  return performance.now() - start;
};
/** CPU time this process has used so far, in ms (user + system). */
const cpuNow = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
let dirs = 0;
const freshDir = (name: string) => {
  const dir = path.join(root, `${name}-${dirs++}`);
  mkdirSync(dir, { recursive: true });
  return dir;
};

/** A git repository of `files` committed source files, its index settled. */
async function gitWorkspace(files: number): Promise<string> {
  const workspace = freshDir(`ws${files}`);
  await committedSourceTree(workspace, files);
  await git(workspace, "status", "--porcelain"); // the first status after a commit rewrites the index
  return workspace;
}

const noopSchema = z.object({ step: z.number() });
const noop = defineNoopTool(noopSchema, "ok");

/** `steps` steps of `deltas` 4-character deltas and one tool call each, then a short answer. */
function script(steps: number, deltas: number): MockTurn[] {
  const turns: MockTurn[] = [];
  for (let i = 0; i < steps; i++) turns.push({ text: "abcd".repeat(deltas), toolCalls: [{ name: "noop", input: { step: i } }], usage: { input: 100, output: 50 } });
  turns.push({ text: "done", usage: { input: 100, output: 1 } });
  return turns;
}

const ANSWER: MockTurn = { text: "Hello! ".repeat(20), usage: { input: 10, output: 20 } };

// ---- first token --------------------------------------------------------------------------------

/** Milliseconds from `streamText()` to its first text delta, the model answering at once. */
async function streamTextFirstToken(): Promise<number> {
  const model = mockModel([ANSWER], { chunkSize: 4 });
  const start = performance.now();
  const result = streamText({ model, instructions: "You are a test.", messages: [{ role: "user", content: "hi" }], maxRetries: 0 });
  let first = 0;
  for await (const part of result.stream) if (part.type === "text-delta" && first === 0) first = performance.now() - start;
  return first;
}

/** Milliseconds from `agent.prompt()` to the first text delta of each of `prompts` prompts, on a fresh agent with the defaults. */
async function latheFirstTokens(workspace: string, prompts: number): Promise<number[]> {
  const dataDir = freshDir("data");
  const agent = createAgent({
    model: mockModel(Array.from({ length: prompts }, () => ANSWER), { chunkSize: 4 }),
    cwd: workspace,
    dataDir,
    storage: new SqliteStorage(path.join(dataDir, "lathe.sqlite")),
  });
  let promptStart = 0;
  let first = 0;
  agent.on("*", (event: AgentEvent) => {
    if (first === 0 && event.type === "message.part.updated" && event.delta !== undefined) first = performance.now() - promptStart;
  });
  const session = await agent.sessions.create();
  const times: number[] = [];
  for (let i = 0; i < prompts; i++) {
    first = 0;
    promptStart = performance.now();
    const { info } = await agent.prompt(session.id, `hello ${i}`);
    if (info.error) throw new Error(`prompt failed: ${JSON.stringify(info.error)}`);
    times.push(first);
  }
  await agent.close();
  return times;
}

// ---- steps ----------------------------------------------------------------------------------------

/** Wall time of a scripted session, and when each step started (ms since the prompt). */
async function latheSession(steps: number, deltas: number, defaults?: { workspace: string }): Promise<{ ms: number; cpuMs: number; stepStarts: number[] }> {
  const dataDir = freshDir("data");
  const agent = createAgent({
    model: mockModel(script(steps, deltas), { chunkSize: 4 }),
    tools: [noop],
    instructions: "You are a test.",
    ...(defaults ? { cwd: defaults.workspace, dataDir, storage: new SqliteStorage(path.join(dataDir, "lathe.sqlite")) } : { snapshots: false, storage: new MemoryStorage(), dataDir }),
  });
  // CPU time at each step's start (its step-start part's first event).
  const stepStarts: number[] = [];
  const seen = new Set<string>();
  agent.on("*", (event: AgentEvent) => {
    if (event.type === "message.part.updated" && event.part.type === "step-start" && !seen.has(event.part.id)) {
      seen.add(event.part.id);
      stepStarts.push(cpuNow());
    }
  });
  const session = await agent.sessions.create();
  const start = performance.now();
  const cpuStart = cpuNow();
  const { info } = await agent.prompt(session.id, "go");
  const ms = performance.now() - start;
  const cpuMs = cpuNow() - cpuStart;
  if (info.finish !== "stop") throw new Error(`unexpected finish ${info.finish}: ${JSON.stringify(info.error)}`);
  await agent.close();
  return { ms, cpuMs, stepStarts: [...stepStarts.map((t) => t - cpuStart), cpuMs] };
}

/** The same script through the AI SDK's own agent loop; CPU ms, and the CPU time at each step's start (then at the end). */
async function toolLoopAgent(steps: number, deltas: number): Promise<number> {
  return (await toolLoopAgentSteps(steps, deltas)).cpuMs;
}
async function toolLoopAgentSteps(steps: number, deltas: number): Promise<{ cpuMs: number; stepStarts: number[] }> {
  const agent = new ToolLoopAgent({
    model: mockModel(script(steps, deltas), { chunkSize: 4 }),
    instructions: "You are a test.",
    tools: { noop: tool({ description: "does nothing", inputSchema: noopSchema, execute: async () => "ok" }) },
    stopWhen: isStepCount(steps + 2),
    maxRetries: 0,
  });
  const start = cpuNow();
  const stepStarts: number[] = [];
  const result = await agent.stream({ prompt: "go" });
  let events = 0;
  for await (const part of result.stream) {
    events++;
    if (part.type === "start-step") stepStarts.push(cpuNow() - start);
  }
  if (events === 0) throw new Error("ToolLoopAgent streamed nothing");
  const cpuMs = cpuNow() - start;
  return { cpuMs, stepStarts: [...stepStarts, cpuMs] };
}

// ---- streaming ------------------------------------------------------------------------------------

const DELTAS = 100_000;
async function sdkStream(): Promise<number> {
  const model = mockModel([{ text: "x".repeat(DELTAS) }], { chunkSize: 1 });
  const start = cpuNow();
  const result = streamText({ model, messages: [{ role: "user", content: "stream" }], maxRetries: 0 });
  let text = "";
  for await (const part of result.stream) if (part.type === "text-delta") text += part.text;
  if (text.length !== DELTAS) throw new Error("short stream");
  return cpuNow() - start;
}
async function latheStream(): Promise<number> {
  const dataDir = freshDir("data");
  const agent = createAgent({ model: mockModel([{ text: "x".repeat(DELTAS) }], { chunkSize: 1 }), snapshots: false, dataDir, storage: new SqliteStorage(path.join(dataDir, "lathe.sqlite")) });
  let deltas = 0;
  agent.on("*", (event: AgentEvent) => {
    if (event.type === "message.part.updated" && event.delta !== undefined) deltas++;
  });
  const session = await agent.sessions.create();
  const start = cpuNow();
  const { info } = await agent.prompt(session.id, "stream");
  const ms = cpuNow() - start;
  if (info.finish !== "stop" || deltas !== DELTAS) throw new Error(`unexpected finish ${info.finish} after ${deltas} deltas`);
  await agent.close();
  return ms;
}

const only = process.env.BENCH_ONLY?.split(",");
const wants = (name: string) => !only || only.includes(name);
const figures: Parameters<typeof report>[1] = [];

try {
  if (wants("first-token")) {
    const ws5k = await gitWorkspace(5_000);
    const sdkTimes: number[] = [];
    for (let i = 0; i < 3; i++) await streamTextFirstToken();
    const firstPrompts: number[] = [];
    const laterPrompts: number[] = [];
    for (let i = 0; i < 3; i++) {
      const [first, ...later] = await latheFirstTokens(ws5k, 6);
      firstPrompts.push(first!);
      laterPrompts.push(...later);
      for (let j = 0; j < 6; j++) sdkTimes.push(await streamTextFirstToken());
    }
    const sdkFirst = median(sdkTimes);
    figures.push(
      { name: "first-token overhead, first prompt, defaults (SQLite + snapshots), 5,000-file git workspace", value: median(firstPrompts) - sdkFirst, target: "≤ 100 ms", note: `prompt → first delta ${median(firstPrompts).toFixed(1)} ms; streamText alone ${sdkFirst.toFixed(1)} ms; fresh agent, data dir and shadow repository; median of 3` },
      { name: "first-token overhead, later prompts (same agent and session)", value: median(laterPrompts) - sdkFirst, target: "≤ 25 ms", note: `prompt → first delta ${median(laterPrompts).toFixed(1)} ms; streamText alone ${sdkFirst.toFixed(1)} ms (median of 18); median of 15` },
    );
  }

  if (wants("first-snapshot")) {
    const ws20k = await gitWorkspace(20_000);
    const [statusMs, firstMs] = await paired(
      timed(() => git(ws20k, "status", "--porcelain")),
      timed(() => new Snapshots({ workspace: ws20k, dataDir: freshDir("data") }).track()),
      7,
    );
    figures.push({ name: "first snapshot, 20,000-file git workspace", value: firstMs, baseline: "git status", baselineValue: statusMs, target: "≤ 2×", note: "a new shadow repository, seeded from the workspace's index and objects" });
  }

  if (wants("per-step")) {
    const ws300 = await gitWorkspace(300);
    const STEPS = 50;
    const [bareMs, defaultsMs] = await paired(
      async () => (await latheSession(STEPS, 100)).ms,
      async () => (await latheSession(STEPS, 100, { workspace: ws300 })).ms,
      7,
    );
    const perStep = (defaultsMs - bareMs) / (STEPS + 1);
    figures.push({ name: "per-step overhead of the defaults (SQLite + snapshots) over memory without snapshots, 300-file git workspace", value: perStep, target: "≤ 15 ms", note: `${STEPS}-step session (100 deltas + 1 read-only tool call per step): ${defaultsMs.toFixed(0)} ms vs ${bareMs.toFixed(0)} ms` });
  }

  if (wants("vs-agent")) {
    const STEPS = 200;
    const [sdkMs, latheMs] = await paired(() => toolLoopAgent(STEPS, 100), async () => (await latheSession(STEPS, 100)).cpuMs, 7);
    figures.push({ name: `${STEPS}-step scripted session, 100 deltas + 1 tool call per step (memory, no snapshots), CPU time`, value: latheMs, baseline: "AI SDK ToolLoopAgent", baselineValue: sdkMs, target: "≤ 1.0×", note: "median of 7, runs alternating" });
  }

  if (wants("long-session")) {
    const runs: Array<{ first: number; last: number }> = [];
    for (let i = 0; i < 3; i++) {
      // stepStarts: the CPU time at each of the 1,001 steps' starts, then at the end.
      const { stepStarts } = await latheSession(1_000, 100);
      if (stepStarts.length !== 1_002) throw new Error(`expected 1,001 steps, saw ${stepStarts.length - 1}`);
      runs.push({ first: stepStarts[100]! - stepStarts[0]!, last: stepStarts[1_000]! - stepStarts[900]! });
    }
    runs.sort((a, b) => a.last / a.first - b.last / b.first);
    const mid = runs[1]!;
    // The AI SDK's own loop on the same script, for reference: its per-request prompt conversion
    // grows with the history too.
    const sdkRuns: Array<{ first: number; last: number }> = [];
    for (let i = 0; i < 3; i++) {
      const { stepStarts } = await toolLoopAgentSteps(1_000, 100);
      if (stepStarts.length !== 1_002) throw new Error(`ToolLoopAgent: expected 1,001 steps, saw ${stepStarts.length - 1}`);
      sdkRuns.push({ first: stepStarts[100]! - stepStarts[0]!, last: stepStarts[1_000]! - stepStarts[900]! });
    }
    sdkRuns.sort((a, b) => a.last / a.first - b.last / b.first);
    figures.push({ name: "1,000-step session: last 100 steps", value: mid.last, baseline: "its first 100 steps", baselineValue: mid.first, target: "≤ 1.1×", note: "CPU time; memory, no snapshots, 100 deltas + 1 tool call per step; median run of 3" });
    figures.push({ name: "1,000-step session with the AI SDK ToolLoopAgent (reference): last 100 steps", value: sdkRuns[1]!.last, baseline: "its first 100 steps", baselineValue: sdkRuns[1]!.first, note: "CPU time; same script; median run of 3" });
  }

  if (wants("streaming")) {
    const [sdkMs, latheMs] = await paired(sdkStream, latheStream, 5);
    figures.push({ name: `stream ${DELTAS.toLocaleString("en")} deltas (SQLite, a listener on every event), CPU time`, value: latheMs, baseline: "AI SDK streamText delivering them", baselineValue: sdkMs, target: "≤ 1.11×", note: `${((sdkMs / latheMs) * 100).toFixed(0)}% of the SDK's rate (target ≥ 90%)` });
  }

  report(import.meta.url, figures);
} finally {
  rmSync(root, { recursive: true, force: true });
}
