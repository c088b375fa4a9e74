import { addTokens, totalTokens, type ModelRef, type PartsUsage, type Session, type TokenUsage } from "@lathe/message";
import type { BudgetTracker } from "../context/budget.js";
import type { AgentRuntime } from "./runtime.js";
import type { SessionWriter } from "../session/session-writer.js";
import type { StepStream } from "./stream-processor.js";
import type { TurnRecorder } from "./turn-recorder.js";
import { costOf, savedByCache, tokensFromUsage } from "../context/usage.js";

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
  const price = rt.facts(ref).price;
  const cost = costOf(tokens, price);
  const cacheSaved = savedByCache(tokens, price);
  recorder.add({ type: "step-finish", reason: streamed.finishReason ?? "unknown", tokens, cost, ...(cacheSaved !== 0 ? { cacheSaved } : {}) });
  const info = recorder.message;
  info.tokens = addTokens(info.tokens, tokens);
  info.cost += cost;
  if (cacheSaved !== 0) info.cacheSaved = (info.cacheSaved ?? 0) + cacheSaved;
  info.finish = streamed.finishReason;
  recorder.messageChanged();
  budget?.add({ steps: 1, tokens: totalTokens(tokens), cost });
  return tokens;
}

/** Counts the usage of a request whose output was thrown away (a failed attempt that is retried): billed all the same. Returns its cost. */
export function recordDiscardedUsage(rt: AgentRuntime, recorder: TurnRecorder, tokens: TokenUsage, ref: ModelRef, budget: BudgetTracker | undefined): number {
  const price = rt.facts(ref).price;
  const cost = costOf(tokens, price);
  const cacheSaved = savedByCache(tokens, price);
  const info = recorder.message;
  info.tokens = addTokens(info.tokens, tokens);
  info.cost += cost;
  if (cacheSaved !== 0) info.cacheSaved = (info.cacheSaved ?? 0) + cacheSaved;
  recorder.messageChanged();
  budget?.add({ tokens: totalTokens(tokens), cost });
  return cost;
}

/**
 * Completes an assistant message: its parts stored first, then the message with its completion time
 * and the session with its tokens, cost and steps added, in one write. The session is written last
 * and names the message it counted through, so a process killed between the two leaves a message
 * that crash repair counts, never one counted twice or lost.
 */
export async function closeMessage(rt: AgentRuntime, writer: SessionWriter, recorder: TurnRecorder): Promise<void> {
  const info = recorder.message;
  await writer.flush();
  info.time.completed = Date.now();
  const steps = recorder.parts.filter((p) => p.type === "step-finish").length;
  await rt.updater.update(
    info.sessionID,
    (current) => {
      current.usage = addUsage(current.usage, { tokens: info.tokens, cost: info.cost, cacheSaved: info.cacheSaved ?? 0, steps }, info.id);
    },
    { messages: [structuredClone(info)] },
  );
  recorder.messageStored();
}

/** `usage` with a message's tokens, cost and steps added, counted through that message. */
export function addUsage(usage: Session["usage"], add: PartsUsage, messageID: string): Session["usage"] {
  const cacheSaved = (usage.cacheSaved ?? 0) + (add.cacheSaved ?? 0);
  return {
    tokens: addTokens(usage.tokens, add.tokens),
    cost: usage.cost + add.cost,
    ...(cacheSaved !== 0 || usage.cacheSaved !== undefined ? { cacheSaved } : {}),
    steps: (usage.steps ?? 0) + add.steps,
    countedThrough: usage.countedThrough === undefined || messageID > usage.countedThrough ? messageID : usage.countedThrough,
  };
}
