import type { ToolPart } from "@lathe/message";
import { truncateOutput, type Diagnostics, type FileAccess, type TodoStore, type Tool, type ToolContext, type ToolResult } from "@lathe/tools";
import { isDoomLoop } from "../agents/doom-loop.js";
import type { AgentEvent } from "../events.js";
import { CorrectedError, DeniedError, RejectedError } from "@lathe/permission";
import type { PermissionGate } from "../agents/agent-permissions.js";
import { HookError, runHooks, type Hooks } from "../agents/hooks.js";
import { erroredState, stateAccessor } from "./tool-state.js";
import type { TurnRecorder } from "./turn-recorder.js";

/** A valid tool call of a step, waiting to run. */
export interface ToolCall {
  part: ToolPart;
  tool: Tool;
  input: Record<string, unknown>;
}

/** What the tool runner needs from the loop. */
export interface ToolRunnerDeps {
  recorder: TurnRecorder;
  gate: PermissionGate;
  agent: string;
  cwd: string;
  signal: AbortSignal;
  maxParallel: number;
  emit: (event: AgentEvent) => void;
  sessionState: Map<string, unknown>;
  hooks: Hooks | undefined;
  /** The session's private directory for tool files. */
  dataDir: string;
  /** The session's stored todo list. */
  todos: TodoStore;
  /** The agent's language servers, if any. */
  diagnostics?: Diagnostics | undefined;
  /** The host's exact environment for shell commands (`AgentOptions.shellEnv`). */
  shellEnv?: Record<string, string>;
  /** Where the file tools read and write text (`AgentOptions.files`). */
  files?: FileAccess;
  /** Awaited before a tool that may change files (not `readOnly`) runs: the step's starting snapshot. */
  beforeChange?: () => Promise<unknown>;
  /** Spans of the calls (telemetry). */
  trace?: { tool(part: ToolPart): (part: ToolPart) => void } | undefined;
}

/** How a step's tool calls ended. */
export interface ToolRunOutcome {
  /** The user rejected a permission: the turn must stop. */
  rejected: boolean;
}

/** The error text of a call that was stopped by the run's abort. */
export const ABORTED_TOOL_ERROR = "aborted";

/**
 * Runs one step's tool calls: consecutive read-only calls in parallel (up to `maxParallel`), every
 * other call alone, in the order the model made them. A thrown error becomes the call's error result;
 * a rejected permission marks the remaining calls as skipped and tells the loop to stop.
 */
export async function runToolCalls(calls: ToolCall[], deps: ToolRunnerDeps): Promise<ToolRunOutcome> {
  let rejected = false;
  for (const batch of batches(calls)) {
    if (rejected || deps.signal.aborted) {
      for (const call of batch) fail(call, deps, rejected ? "Skipped: the user rejected an earlier tool call." : ABORTED_TOOL_ERROR);
      continue;
    }
    // Only read-only calls share a batch: a batch of one that may change files waits for its snapshot.
    if (!batch[0]!.tool.readOnly) await deps.beforeChange?.();
    const results = await mapLimited(batch, deps.maxParallel, (call) => runOne(call, deps));
    if (results.some((r) => r === "rejected")) rejected = true;
  }
  return { rejected };
}

function* batches(calls: ToolCall[]): Generator<ToolCall[]> {
  let reads: ToolCall[] = [];
  for (const call of calls) {
    if (call.tool.readOnly) {
      reads.push(call);
      continue;
    }
    if (reads.length) yield reads;
    reads = [];
    yield [call];
  }
  if (reads.length) yield reads;
}

async function mapLimited<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return results;
}

type CallOutcome = "ok" | "error" | "rejected";

async function runOne(call: ToolCall, deps: ToolRunnerDeps): Promise<CallOutcome> {
  const end = deps.trace?.tool(call.part);
  try {
    return await runCall(call, deps);
  } finally {
    end?.(call.part);
  }
}

async function runCall(call: ToolCall, deps: ToolRunnerDeps): Promise<CallOutcome> {
  const { part, tool, input } = call;
  const { recorder } = deps;
  const start = Date.now();
  part.state = { status: "running", input, time: { start } };
  recorder.changed(part);
  try {
    // The parts before this call (searched from the end: it is among the newest).
    if (isDoomLoop(recorder.parts, tool.name, input, recorder.parts.lastIndexOf(part))) {
      await deps.gate.ask({
        sessionID: part.sessionID,
        agent: deps.agent,
        permission: "doom_loop",
        patterns: [tool.name],
        always: [tool.name],
        metadata: { tool: tool.name, input },
        tool: { messageID: part.messageID, callID: part.callID },
        signal: deps.signal,
      });
    }
    const hookInput = { sessionID: part.sessionID, agent: deps.agent, tool: tool.name, callID: part.callID };
    const sent = deps.hooks?.["tool.execute.before"] ? JSON.stringify(input) : undefined;
    const before: { args: Record<string, unknown>; block?: string } = { args: input };
    await runHooks(deps.hooks, "tool.execute.before", hookInput, before);
    if (sent !== undefined) recordRewrite(call, deps, sent, before.args);
    if (before.block !== undefined) {
      fail(call, deps, before.block);
      return "error";
    }
    const result = await untilAborted(tool.execute(before.args, context(call, deps)), deps.signal);
    // A tool that stopped because of the abort and returned anyway did not finish its work.
    if (deps.signal.aborted) throw deps.signal.reason;
    const running = part.state.status === "running" ? part.state : undefined;
    // Every tool's output is capped, not only the built-in ones' — once: a tool that bounds its own
    // output (bash keeps the tail, read says where to go on) is not cut again. The cap keeps the head
    // and the tail; the full text stays readable in the session's data dir.
    const { output } = tool.boundsOutput
      ? { output: result.output }
      : await truncateOutput(result.output, { sessionID: part.sessionID, dataDir: deps.dataDir }, { direction: "both" });
    const after = { title: result.title, output, metadata: { ...running?.metadata, ...result.metadata } };
    await runHooks(deps.hooks, "tool.execute.after", { ...hookInput, args: before.args }, after);
    part.state = {
      status: "completed",
      input: before.args,
      ...(running?.modelInput ? { modelInput: running.modelInput } : {}),
      output: after.output,
      title: after.title,
      metadata: after.metadata,
      ...(result.attachments?.length ? { attachments: result.attachments } : {}),
      time: { start, end: Date.now() },
    };
    recorder.changed(part);
    return "ok";
  } catch (error) {
    if (deps.signal.aborted) {
      fail(call, deps, ABORTED_TOOL_ERROR);
      return "error";
    }
    if (error instanceof HookError) {
      // A failing hook ends the turn; the call itself is recorded as failed by it.
      fail(call, deps, error.message);
      throw error;
    }
    if (error instanceof CorrectedError || error instanceof DeniedError) {
      // The model reads why and goes on: the user's feedback, or the rule that denied the call.
      fail(call, deps, error.message);
      return "error";
    }
    if (error instanceof RejectedError) {
      fail(call, deps, error.message);
      return "rejected";
    }
    fail(call, deps, errorText(error));
    return "error";
  }
}

/**
 * Stores the input a `tool.execute.before` hook made (in place or as a new object) as the one that
 * runs, keeping the model's own (`sent`, as JSON) beside it, so the stored call is what ran.
 */
function recordRewrite(call: ToolCall, deps: ToolRunnerDeps, sent: string, args: Record<string, unknown>): void {
  const state = call.part.state;
  if (state.status !== "running" || JSON.stringify(args) === sent) return;
  call.part.state = { ...state, input: args, modelInput: JSON.parse(sent) as Record<string, unknown> };
  deps.recorder.changed(call.part);
}

function fail(call: ToolCall, deps: ToolRunnerDeps, message: string): void {
  call.part.state = erroredState(call.part.state, message);
  deps.recorder.changed(call.part);
}

/** The text of an error as the model should read it. */
export function errorText(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return typeof error === "string" ? error : JSON.stringify(error);
}

/** How long an aborted tool gets to stop by itself (kill its processes, finish a subagent) before the run moves on. */
const ABORT_GRACE_MS = 3_000;

/**
 * The tool's result, or a rejection once the run is aborted and the tool has stopped — or has had
 * {@link ABORT_GRACE_MS} to, so a tool that ignores its signal cannot hold the run.
 */
function untilAborted(work: Promise<ToolResult>, signal: AbortSignal): Promise<ToolResult> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    let grace: NodeJS.Timeout | undefined;
    const onAbort = () => {
      grace = setTimeout(() => reject(signal.reason), ABORT_GRACE_MS);
      grace.unref?.();
      work.finally(() => reject(signal.reason)).catch(() => {});
    };
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, reject).finally(() => {
      signal.removeEventListener("abort", onAbort);
      if (grace) clearTimeout(grace);
    });
  });
}

function context(call: ToolCall, deps: ToolRunnerDeps): ToolContext {
  const { part } = call;
  return {
    sessionID: part.sessionID,
    messageID: part.messageID,
    callID: part.callID,
    agent: deps.agent,
    cwd: deps.cwd,
    abort: deps.signal,
    ask: (request) =>
      deps.gate.ask({
        sessionID: part.sessionID,
        agent: deps.agent,
        permission: request.permission,
        patterns: request.patterns,
        ...(request.variants ? { variants: request.variants } : {}),
        always: request.always ?? request.patterns,
        metadata: request.metadata ?? {},
        ...((request as { opaque?: boolean }).opaque ? { opaque: true } : {}),
        tool: { messageID: part.messageID, callID: part.callID },
        signal: deps.signal,
        // The answer is kept with the call, so a UI loading the history shows it as a live stream did.
        onAnswered: (approval) => updateRunning(part, deps, { metadata: { approval } }),
      }),
    ...(deps.gate.check ? { check: (request) => deps.gate.check!({ sessionID: part.sessionID, agent: deps.agent, ...request }) } : {}),
    metadata: (update) => updateRunning(part, deps, update),
    emit: (event) => deps.emit({ ...event, sessionID: part.sessionID }),
    dataDir: deps.dataDir,
    ...(deps.shellEnv ? { shellEnv: deps.shellEnv } : {}),
    ...(deps.files ? { files: deps.files } : {}),
    todos: deps.todos,
    ...(deps.diagnostics ? { diagnostics: deps.diagnostics } : {}),
    state: stateAccessor(deps.sessionState),
  };
}

/** Merges a title and metadata into a running call's state and records the change; a call no longer running keeps its state. */
function updateRunning(part: ToolPart, deps: ToolRunnerDeps, update: { title?: string; metadata?: Record<string, unknown> }): void {
  const state = part.state;
  if (state.status !== "running") return;
  part.state = {
    ...state,
    ...(update.title !== undefined ? { title: update.title } : {}),
    ...(update.metadata !== undefined ? { metadata: { ...state.metadata, ...update.metadata } } : {}),
  };
  deps.recorder.changed(part);
}
