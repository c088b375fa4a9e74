import { addTokens, totalTokens, type ModelRef, type TokenUsage } from "@lathe/message";
import type { BudgetTracker } from "../context/budget.js";
import type { AgentRuntime } from "./runtime.js";
import type { SessionWriter } from "../session/session-writer.js";
import type { StepStream } from "./stream-processor.js";
import type { TurnRecorder } from "./turn-recorder.js";
import { costOf, tokensFromUsage } from "../context/usage.js";

/**
 * Records what a finished step used: a `step-finish` part with its tokens and cost, added to the
 * message and counted by the budget. Returns the step's tokens (undefined when the stream reported
 * neither a finish nor usage, e.g. it broke off).
 */
export function recordStepUsage(
  rt: AgentRuntime,
  recorder: TurnRecorder,
  streamed: StepStream,
  ref: ModelRef,
  budget: BudgetTracker | undefined,
): TokenUsage | undefined {
  if (streamed.finishReason === undefined && streamed.usage === undefined) return undefined;
  const tokens = tokensFromUsage(streamed.usage);
  const cost = costOf(tokens, rt.facts(ref).price);
  recorder.add({ type: "step-finish", reason: streamed.finishReason ?? "unknown", tokens, cost });
  const info = recorder.message;
  info.tokens = addTokens(info.tokens, tokens);
  info.cost += cost;
  info.finish = streamed.finishReason;
  recorder.messageChanged();
  budget?.add({ steps: 1, tokens: totalTokens(tokens), cost });
  return tokens;
}

/** Counts the usage of a request whose output was thrown away (a failed attempt that is retried): billed all the same. */
export function recordDiscardedUsage(rt: AgentRuntime, recorder: TurnRecorder, tokens: TokenUsage, ref: ModelRef, budget: BudgetTracker | undefined): void {
  const cost = costOf(tokens, rt.facts(ref).price);
  const info = recorder.message;
  info.tokens = addTokens(info.tokens, tokens);
  info.cost += cost;
  recorder.messageChanged();
  budget?.add({ tokens: totalTokens(tokens), cost });
}

/**
 * Completes an assistant message: stored with its completion time, and its tokens, cost and steps
 * added to the session's totals.
 */
export async function closeMessage(rt: AgentRuntime, writer: SessionWriter, recorder: TurnRecorder): Promise<void> {
  const info = recorder.message;
  info.time.completed = Date.now();
  recorder.messageChanged();
  await writer.flush();
  const steps = recorder.parts.filter((p) => p.type === "step-finish").length;
  await rt.updater.update(info.sessionID, (current) => {
    current.usage = {
      tokens: addTokens(current.usage.tokens, info.tokens),
      cost: current.usage.cost + info.cost,
      steps: (current.usage.steps ?? 0) + steps,
    };
  });
}
