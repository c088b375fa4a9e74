import { INTERRUPTED_TOOL_RESULT, type MessageWithParts, type Part, type Session } from "@lathe/message";
import { NothingToResumeError } from "../errors.js";
import type { PromptOptions } from "../options.js";
import type { RunResult } from "./run.js";
import type { AgentRuntime } from "./runtime.js";
import type { SessionWriter } from "../session/session-writer.js";
import type { ToolCall } from "./tool-runner.js";
import { TurnRecorder } from "./turn-recorder.js";
import { DEFAULT_AGENT, cancelCalls, finishTurn, newAnswer } from "./turn-common.js";
import { drive } from "./drive.js";
import { activeMode, enterMode } from "./turn-mode.js";
import { subtaskCalls } from "./command-subtask.js";
import { modelRef } from "../context/model-info.js";

/**
 * Continues a turn a previous process left unfinished — it died mid-turn, or stopped while a tool
 * call waited for approval:
 * - a prompt stored with no answer started yet is answered now;
 * - the step that was streaming when the process stopped is dropped (its output and usage were never
 *   recorded as a finished step) and requested again; finished steps are kept and never repeated;
 * - calls that wait for approval run again (their `ask` attaches to the stored request, answered
 *   before or after the restart); every other unfinished call gets an "interrupted" result;
 * - then the loop goes on, and the answer is stored once, in the same assistant message.
 */
export async function resumeTurn(
  rt: AgentRuntime,
  writer: SessionWriter,
  session: Session,
  history: MessageWithParts[],
  options: PromptOptions,
  signal: AbortSignal,
): Promise<RunResult> {
  rt.permissions.restore(session);
  // Messages steered into a turn the process left unfinished come after its assistant message: that
  // turn is resumed, and takes them before its next request, as it would have.
  const steeredAt = history.findLastIndex((m) => m.info.role !== "user") + 1;
  const steeredInto = history[steeredAt - 1];
  if (steeredAt > 0 && steeredAt < history.length && steeredInto?.info.role === "assistant" && steeredInto.info.time.completed === undefined) {
    for (const message of history.slice(steeredAt)) rt.steering.add(session.id, message);
    history = history.slice(0, steeredAt);
  }
  const last = history[history.length - 1];
  if (last?.info.role === "user") {
    // The mode the prompt was stored under, unless this resume asks for another.
    enterMode(rt, session.id, activeMode(rt, session, options.mode ?? last.info.mode));
    const agent = options.agent ?? last.info.agent ?? DEFAULT_AGENT;
    const ref = options.model ? modelRef(options.model) : rt.modelFor(agent).ref;
    const recorder = newAnswer(rt, writer, session.id, last.info.id, agent, ref);
    return drive(rt, writer, session, history, recorder, subtaskCalls(rt, recorder, last.parts, agent), { ...options, agent }, signal);
  }
  if (!last || last.info.role !== "assistant" || last.info.time.completed !== undefined) {
    throw new NothingToResumeError(session.id);
  }
  const asked = history.findLast((m) => m.info.role === "user")?.info;
  enterMode(rt, session.id, activeMode(rt, session, options.mode ?? (asked?.role === "user" ? asked.mode : undefined)));
  const info = last.info;
  const waiting = rt.permissions.takeResumableCalls(session);
  const recorder = new TurnRecorder(info, writer, (event) => rt.emit(event), last.parts);
  recorder.remove(unfinishedStep(recorder.parts));
  const calls: ToolCall[] = [];
  const interrupted: Part[] = [];
  for (const part of recorder.parts) {
    if (part.type !== "tool" || (part.state.status !== "pending" && part.state.status !== "running")) continue;
    const tool = rt.tools.get(part.tool);
    if (tool && part.state.status === "running" && waiting.has(part.callID)) calls.push({ part, tool, input: part.state.input });
    else interrupted.push(part);
  }
  cancelCalls(recorder, interrupted, INTERRUPTED_TOOL_RESULT);
  // The process stopped after the model's last step (an answer without tool calls) and before the
  // message was closed: the answer is there; asking the model again would answer twice.
  if (calls.length === 0 && answeredInLastStep(recorder.parts) && !rt.steering.has(session.id)) return finishTurn(rt, writer, recorder, signal);
  const agent = options.agent ?? info.agent;
  return drive(rt, writer, session, history.slice(0, -1), recorder, calls, { ...options, agent }, signal);
}

/**
 * The parts of a step that began and never finished (from its `step-start`, with no `step-finish`
 * after it): what a model was streaming when the process stopped. Its tool calls never ran (calls run
 * after their step finishes), so the whole step is requested again.
 */
export function unfinishedStep(parts: Part[]): Part[] {
  const start = parts.findLastIndex((p) => p.type === "step-start");
  if (start < 0 || parts.slice(start).some((p) => p.type === "step-finish")) return [];
  return parts.slice(start);
}

/** Whether the last step finished with no tool call: the step that ends a turn. */
export function answeredInLastStep(parts: Part[]): boolean {
  const finish = parts.findLastIndex((p) => p.type === "step-finish");
  if (finish < 0) return false;
  const start = parts.slice(0, finish).findLastIndex((p) => p.type === "step-start");
  return !parts.slice(start + 1, finish).some((p) => p.type === "tool");
}
