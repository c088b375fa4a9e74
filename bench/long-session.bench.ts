// Cost of a step late in a long session: a 500-turn session of 4-step turns (three steps that each
// write some text and call a no-op tool, then an answer), the model answering at once. For Lathe on
// memory storage and on SQLite, the CPU time of a step in the last 50 turns ÷ in the first 50, and
// the process's resident memory after the last turn (after a GC); beside the AI SDK's
// `ToolLoopAgent` given the same script with the host keeping the messages, measured in the same run.
//
// Each variant runs in a child process of its own (this file, with the variant's name as argument),
// so that one's heap, JIT state and RSS do not weigh on another's. CPU time (user + system) rather
// than wall time: on a shared, loaded machine wall time mostly measures waiting for a core.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { isStepCount, tool, ToolLoopAgent, type ModelMessage } from "ai";
import { z } from "zod";
import { createAgent } from "@lathe/core";
import { mockModel, type MockTurn } from "@lathe/mock";
import { MemoryStorage, SqliteStorage } from "@lathe/storage";
import { defineNoopTool } from "./lib/long-session.ts";
import { report } from "./lib/report.ts";

const TURNS = Number(process.env.LONG_SESSION_TURNS ?? 500);
const STEPS_PER_TURN = 4;
const WINDOW = 50;

type Variant = "lathe-memory" | "lathe-sqlite" | "tool-loop-agent";
interface VariantResult {
  /** CPU ms of each turn. */
  turnCpuMs: number[];
  /** Resident set size after the last turn and a GC, bytes. */
  rss: number;
  /** The JavaScript heap in use after the last turn and a GC (what is kept), bytes. */
  heap: number;
}

const OUTPUT = "result line ".repeat(20);
const noopSchema = z.object({ turn: z.number(), step: z.number() });

/** One turn's model answers: three steps with a tool call each, then text. */
function turnScript(turn: number): MockTurn[] {
  const steps: MockTurn[] = [];
  for (let step = 0; step < STEPS_PER_TURN - 1; step++) {
    steps.push({ text: `Looking at part ${step} of task ${turn}. `.repeat(4), toolCalls: [{ name: "noop", input: { turn, step } }], usage: { input: 100, output: 50 } });
  }
  steps.push({ text: `Task ${turn} is done. `.repeat(4), usage: { input: 100, output: 20 } });
  return steps;
}

function sessionScript(): MockTurn[] {
  return Array.from({ length: TURNS }, (_, turn) => turnScript(turn)).flat();
}

/** CPU time this process has used so far, in ms (user + system). */
function cpuNow(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** Resident set size and heap in use, after a full GC. */
function memoryAfterGc(): { rss: number; heap: number } {
  for (let i = 0; i < 3; i++) globalThis.gc?.();
  const { rss, heapUsed } = process.memoryUsage();
  return { rss, heap: heapUsed };
}

async function lathe(storageKind: "memory" | "sqlite"): Promise<VariantResult> {
  const dir = mkdtempSync(path.join(tmpdir(), "lathe-bench-long-"));
  const model = mockModel(sessionScript(), { chunkSize: 16 });
  const noop = defineNoopTool(noopSchema, OUTPUT);
  const agent = createAgent({
    model,
    tools: [noop],
    instructions: "You are a test.",
    snapshots: false,
    dataDir: dir,
    storage: storageKind === "memory" ? new MemoryStorage() : new SqliteStorage(path.join(dir, "lathe.sqlite")),
  });
  const session = await agent.sessions.create();
  const turnCpuMs: number[] = [];
  for (let turn = 0; turn < TURNS; turn++) {
    const start = cpuNow();
    const { info } = await agent.prompt(session.id, `Do task ${turn}.`);
    turnCpuMs.push(cpuNow() - start);
    if (info.finish !== "stop") throw new Error(`turn ${turn} ended ${info.finish}: ${JSON.stringify(info.error)}`);
    // The mock keeps every request it was sent; the bench does not want them.
    model.calls.length = 0;
  }
  const memory = memoryAfterGc();
  await agent.close();
  rmSync(dir, { recursive: true, force: true });
  return { turnCpuMs, ...memory };
}

async function toolLoopAgent(): Promise<VariantResult> {
  const model = mockModel(sessionScript(), { chunkSize: 16 });
  const agent = new ToolLoopAgent({
    model,
    instructions: "You are a test.",
    tools: { noop: tool({ description: "does nothing", inputSchema: noopSchema, execute: async () => OUTPUT }) },
    stopWhen: isStepCount(STEPS_PER_TURN + 1),
    maxRetries: 0,
  });
  // The host keeps the conversation: each turn's response messages are appended to it.
  const messages: ModelMessage[] = [];
  const turnCpuMs: number[] = [];
  for (let turn = 0; turn < TURNS; turn++) {
    const start = cpuNow();
    messages.push({ role: "user", content: `Do task ${turn}.` });
    const result = await agent.stream({ messages });
    for await (const part of result.stream) if (part.type === "error") throw part.error;
    messages.push(...(await result.response).messages);
    turnCpuMs.push(cpuNow() - start);
    model.calls.length = 0;
  }
  return { turnCpuMs, ...memoryAfterGc() };
}

async function runVariant(variant: Variant): Promise<VariantResult> {
  if (variant === "lathe-memory") return lathe("memory");
  if (variant === "lathe-sqlite") return lathe("sqlite");
  return toolLoopAgent();
}

/** Runs `variant` in a child process of this file and reads back its result. */
function inChild(variant: Variant): VariantResult {
  const out = execFileSync(process.execPath, ["--expose-gc", "--no-warnings", fileURLToPath(import.meta.url), variant], {
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
    stdio: ["ignore", "pipe", "inherit"],
  });
  return JSON.parse(out.trim().split("\n").at(-1)!) as VariantResult;
}

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
/** Mean CPU ms of a step over the first and the last {@link WINDOW} turns. */
function stepCosts(result: VariantResult): { first: number; last: number } {
  const perStep = result.turnCpuMs.map((ms) => ms / STEPS_PER_TURN);
  // The first turn pays for warming up (module loading, JIT); it is left out of the first window.
  return { first: mean(perStep.slice(1, WINDOW + 1)), last: mean(perStep.slice(-WINDOW)) };
}

const child = process.argv[2] as Variant | undefined;
if (child) {
  process.stdout.write(`${JSON.stringify(await runVariant(child))}\n`);
} else {
  const baseline = inChild("tool-loop-agent");
  const memory = inChild("lathe-memory");
  const sqlite = inChild("lathe-sqlite");
  const base = stepCosts(baseline);
  const baseGrowth = base.last / base.first;
  const mb = (bytes: number) => bytes / (1024 * 1024);
  const figures = [];
  for (const [label, result] of [
    ["memory storage", memory],
    ["SQLite storage", sqlite],
  ] as const) {
    const own = stepCosts(result);
    figures.push(
      {
        name: `${TURNS}-turn session (${STEPS_PER_TURN} steps a turn), ${label}: step cost, last ${WINDOW} ÷ first ${WINDOW} turns`,
        value: own.last / own.first,
        unit: "×",
        baseline: "ToolLoopAgent, host-kept messages",
        baselineValue: baseGrowth,
        target: "≤ 1.2×",
        note: `Lathe ${own.first.toFixed(2)} → ${own.last.toFixed(2)} ms/step; ToolLoopAgent ${base.first.toFixed(2)} → ${base.last.toFixed(2)} ms/step (CPU)`,
      },
      {
        name: `${TURNS}-turn session, ${label}: RSS after the last turn`,
        value: mb(result.rss),
        unit: "MB",
        baseline: "ToolLoopAgent, host-kept messages",
        baselineValue: mb(baseline.rss),
        target: "≤ 1.2× of ToolLoopAgent's",
      },
      {
        name: `${TURNS}-turn session, ${label}: JavaScript heap in use after the last turn`,
        value: mb(result.heap),
        unit: "MB",
        baseline: "ToolLoopAgent, host-kept messages",
        baselineValue: mb(baseline.heap),
        note: "what stays allocated; RSS also counts heap the process reached earlier and kept",
      },
    );
  }
  report(import.meta.url, figures);
}
