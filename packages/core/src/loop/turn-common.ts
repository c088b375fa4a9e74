import { join } from "node:path";
import { createId, emptyTokens, type AssistantMessage, type Limits, type MessageWithParts, type ModelRef, type Part, type Session } from "@lathe/message";
import { BudgetTracker, budgetMessage, type BudgetHit } from "../context/budget.js";
import { erroredState } from "./tool-state.js";
import { BudgetExceededError } from "../errors.js";
import { abortedError, toMessageError } from "./message-error.js";
import type { RunResult } from "./run.js";
import type { AgentRuntime } from "./runtime.js";
import { SessionWriter } from "../session/session-writer.js";
import { ABORTED_TOOL_ERROR } from "./tool-runner.js";
import { TurnRecorder } from "./turn-recorder.js";
import { closeMessage } from "./turn-usage.js";

// Small pieces every part of a turn uses: the turn's state, its budget, how it fails or ends.

/** The agent a turn uses when the prompt names none. */
export const DEFAULT_AGENT = "build";

/** The budgets a session's work runs under: a prompt's own limits, the session's over the agent's, and a running parent turn's. */
export function sessionBudget(rt: AgentRuntime, session: Session, prompt?: Limits): BudgetTracker {
  const parentID = rt.parentOf(session.id);
  return new BudgetTracker(session.id, { prompt, session, agent: rt.options.limits }, parentID === undefined ? undefined : rt.budgets.get(parentID));
}

/** What a turn is working on: the assistant message being written, and the messages before it. */
export interface TurnState {
  recorder: TurnRecorder;
  prior: MessageWithParts[];
  /** True from a compaction until the next step ends: a second overflow then means compaction cannot help. */
  justCompacted: boolean;
}

/** The message a turn is writing, as a history entry. */
export function current(turn: TurnState): MessageWithParts {
  return { info: turn.recorder.message, parts: turn.recorder.parts };
}

/** The error of a context window that compaction could not make room in. */
export function overflowError(cause: unknown): AssistantMessage["error"] & object {
  return {
    name: "ContextOverflowError",
    message: "The conversation no longer fits the model's context window, even after compaction.",
    ...(cause !== undefined ? { data: { cause: toMessageError(cause).message } } : {}),
  };
}

/** Ends a turn on a budget: finish `budget`, the typed reason as the error, a `budget.exceeded` event. */
export function stopForBudget(rt: AgentRuntime, recorder: TurnRecorder, budget: BudgetTracker, hit: BudgetHit): void {
  const info = recorder.message;
  info.finish = "budget";
  info.error = { name: "BudgetExceededError", message: budgetMessage(hit), data: { ...hit } };
  budget.stop(hit);
  recorder.messageChanged();
  rt.emit({ type: "budget.exceeded", sessionID: info.sessionID, messageID: info.id, budget: hit });
}

/** Ends a turn: unfinished calls of an aborted run become errors, the message is completed and stored, the session's usage grows. */
export async function finishTurn(rt: AgentRuntime, writer: SessionWriter, recorder: TurnRecorder, signal: AbortSignal): Promise<RunResult> {
  const info = recorder.message;
  if (signal.aborted) {
    cancelCalls(recorder, recorder.parts, ABORTED_TOOL_ERROR);
    info.finish = "aborted";
    info.error ??= abortedError(signal.reason);
  }
  try {
    await closeMessage(rt, writer, recorder);
  } catch (error) {
    // A run resolves even when storage fails as the turn ends: the message says why, and the next
    // prompt's crash repair finishes what storage holds of it.
    info.time.completed ??= Date.now();
    if (!info.error) fail(rt, recorder, toMessageError(error));
  }
  return { info, parts: recorder.parts, ...(info.output !== undefined ? { output: info.output } : {}) };
}

export function fail(rt: AgentRuntime, recorder: TurnRecorder, error: AssistantMessage["error"] & object): void {
  recorder.message.error = error;
  recorder.message.finish ??= "error";
  if (recorder.message.finish === "tool-calls" || recorder.message.finish === "stop") recorder.message.finish = "error";
  rt.emit({ type: "session.error", sessionID: recorder.message.sessionID, messageID: recorder.message.id, error });
}

/** Marks calls that will never run as errors, so the model sees a result for each. */
export function cancelCalls(recorder: TurnRecorder, parts: Part[], message: string): void {
  const now = Date.now();
  for (const part of parts) {
    if (part.type !== "tool") continue;
    const state = part.state;
    if (state.status !== "pending" && state.status !== "running") continue;
    part.state = erroredState(state, message, now);
    recorder.changed(part);
  }
}

/** Starts the assistant message that answers `parentID`. */
export function newAnswer(rt: AgentRuntime, writer: SessionWriter, sessionID: string, parentID: string, agent: string, ref: ModelRef): TurnRecorder {
  const info: AssistantMessage = {
    id: createId("message"),
    sessionID,
    role: "assistant",
    parentID,
    time: { created: Date.now() },
    providerID: ref.providerID,
    modelID: ref.modelID,
    agent,
    cwd: rt.cwd,
    tokens: emptyTokens(),
    cost: 0,
  };
  const recorder = new TurnRecorder(info, writer, (event) => rt.emit(event));
  recorder.messageChanged();
  return recorder;
}

/** The private directory of a session's tool files. */
export function sessionDataDir(rt: AgentRuntime, sessionID: string): string {
  return join(rt.dataDir, "sessions", sessionID);
}
