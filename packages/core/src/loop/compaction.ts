import {
  createId,
  emptyTokens,
  estimateMessagesTokens,
  estimatePartTokens,
  estimateTokens,
  selectPrunable,
  toModelMessages,
  type AssistantMessage,
  type MessageError,
  type MessageWithParts,
  type ModelRef,
  type Part,
  type UserMessage,
} from "@lathe/message";
import type { Tool } from "@lathe/tools";
import type { BudgetTracker } from "../context/budget.js";
import { runHooks, type ChatParams } from "../agents/hooks.js";
import { finishError, toMessageError } from "./message-error.js";
import { isContextOverflow } from "../context/provider-errors.js";
import { usableContext } from "../context/overflow.js";
import type { AgentRuntime } from "./runtime.js";
import type { SessionWriter } from "../session/session-writer.js";
import { streamStepWithRetries } from "./step-attempts.js";
import { resolveCache } from "../context/cache-options.js";
import { cachePlan, withCacheKey } from "../context/cache-plan.js";
import { optional } from "./optional.js";
import { TurnRecorder } from "./turn-recorder.js";
import { closeMessage, recordDiscardedUsage, recordStepUsage } from "./turn-usage.js";

/** The name of the hidden agent that writes summaries. */
export const COMPACTION_AGENT = "compaction";

/** The request that asks for a summary, after the history it summarises. */
export const SUMMARY_PROMPT = `Write a handover summary of this session so far. Another instance of you will carry on the work from this summary alone, plus the last few messages, which it will see verbatim; everything else is gone. Keep every fact it needs and nothing it does not.

Use exactly these sections, in Markdown:

## Goal
What the user asked for, in their terms, and what "done" looks like.

## Constraints and preferences
Rules the user set or the work revealed: conventions, things not to touch, tools or versions to use, approvals given or refused.

## Progress
- Done: what is finished, with the files and functions changed.
- In progress: what was being done when this summary was written, and how far it got.
- Blocked: open problems, failing tests or commands with their exact error messages.

## Key decisions
Choices made and why, including approaches tried and abandoned, so they are not tried again.

## Next steps
The concrete next actions, in order.

## Relevant files
Each file that matters, with its path and one line on why (read, changed, to change).

Be exact: keep file paths, symbol names, commands, error messages, numbers and identifiers as they were. If an earlier summary is in the history, merge it in: this summary replaces it. Do not call tools. Answer with the summary only.`;

/** The system prompt of the summary request. */
export const COMPACTION_SYSTEM =
  "You summarise coding-agent sessions so that the work can go on without the full history. You are precise, complete about what matters, and brief about what does not.";

/** The note added to a request replayed after a compaction mid-turn. */
export const REPLAY_NOTE =
  "[The conversation was compacted while this request was being worked on. The summary above says what is done; carry on from there without redoing finished work.]";

const NO_TOOLS: ReadonlyMap<string, Tool> = new Map();

/** What a compaction needs from the turn it runs in. */
export interface CompactionContext {
  rt: AgentRuntime;
  writer: SessionWriter;
  sessionID: string;
  signal: AbortSignal;
  budget?: BudgetTracker | undefined;
}

/**
 * Marks old tool outputs as compacted (see `selectPrunable`): the model sees a short marker in their
 * place; storage keeps them. Returns the estimated tokens freed (0 when too little could be).
 */
export async function pruneToolOutputs(ctx: CompactionContext, view: MessageWithParts[]): Promise<number> {
  if (ctx.rt.options.compaction?.prune === false) return 0;
  const selection = selectPrunable(view);
  if (selection.parts.length === 0) return 0;
  const now = Date.now();
  for (const part of selection.parts) {
    if (part.state.status !== "completed") continue;
    part.state = { ...part.state, time: { ...part.state.time, compacted: now } };
    ctx.writer.part(part);
    ctx.rt.emit({ type: "message.part.updated", sessionID: part.sessionID, part: { ...part } });
  }
  await ctx.writer.flush();
  return selection.tokens;
}

/** A finished summary attempt: the compaction's user message and the summary answering it (with `error` when it failed). */
export interface Summary {
  user: MessageWithParts;
  summary: MessageWithParts & { info: AssistantMessage };
}

/**
 * Writes a summary of `view`: a user message with a `compaction` part (naming the first message of
 * the verbatim `tail`, if any), answered by the `compaction` agent — its own model when the host gave
 * it one — in one request without tools. The summary message has `summary: true`; from then on the
 * model's view of the session starts at it. A summary that fails (its request overflows too, the
 * provider fails, the answer is cut off or empty) has `error` set and changes nothing.
 */
export async function summarise(
  ctx: CompactionContext,
  view: MessageWithParts[],
  options: {
    auto: boolean;
    tail?: string | undefined;
    /** The estimated tokens of a request the provider rejected as too long: the summary's input starts below it. */
    rejected?: number | undefined;
  },
): Promise<Summary> {
  const { rt, writer, sessionID, signal } = ctx;
  const { model, ref } = rt.modelFor(COMPACTION_AGENT);
  const definition = rt.agents.get(COMPACTION_AGENT);
  const userInfo: UserMessage = { id: createId("message"), sessionID, role: "user", time: { created: Date.now() }, agent: COMPACTION_AGENT };
  const marker: Part = {
    id: createId("part"),
    sessionID,
    messageID: userInfo.id,
    type: "compaction",
    auto: options.auto,
    ...(options.tail !== undefined ? { tail: options.tail } : {}),
  };
  writer.message(userInfo);
  writer.part(marker);
  rt.emit({ type: "message.updated", sessionID, message: structuredClone(userInfo) });
  rt.emit({ type: "message.part.updated", sessionID, part: { ...marker } });

  const info: AssistantMessage = {
    id: createId("message"),
    sessionID,
    role: "assistant",
    parentID: userInfo.id,
    time: { created: Date.now() },
    providerID: ref.providerID,
    modelID: ref.modelID,
    agent: COMPACTION_AGENT,
    cwd: rt.cwd,
    tokens: emptyTokens(),
    cost: 0,
    summary: true,
  };
  const recorder = new TurnRecorder(info, writer, (event) => rt.emit(event));
  recorder.messageChanged();

  // The summary caches by the same rules as the session's steps, under a key of its own.
  const cache = cachePlan(model, resolveCache(rt.options.cache, definition.cache), `${sessionID}/compaction`, rt.facts(ref).cacheMinTokens);
  const params: ChatParams = {
    ...optional("temperature", definition.temperature),
    ...optional("maxOutputTokens", rt.options.maxOutputTokens),
    providerOptions: withCacheKey(structuredClone(rt.options.providerOptions ?? {}), cache),
    headers: { ...rt.options.headers },
  };
  try {
    await runHooks(rt.hooks, "chat.params", { sessionID, agent: COMPACTION_AGENT, model: ref }, params);
    const instructions = definition.prompt ?? COMPACTION_SYSTEM;
    // The summary's history fits the model's window when it is known, and starts below a request the
    // provider rejected; a summary request rejected as too long itself is sent again with half the
    // history it carried, so an overflowing session (even of a model whose window is unknown) can
    // always be compacted back into service.
    let limit = Math.min(summaryInputLimit(rt, ref, instructions), options.rejected !== undefined ? Math.floor(options.rejected * REJECTED_SHARE) : Number.POSITIVE_INFINITY);
    let streamed: Awaited<ReturnType<typeof streamStepWithRetries>>;
    for (let attempt = 1; ; attempt++) {
      const history = fitForSummary(view, limit);
      const start = recorder.parts.length;
      streamed = await streamStepWithRetries(
        rt,
        recorder,
        {
          model,
          instructions,
          messages: [...toModelMessages(history, { model: ref }), { role: "user", content: SUMMARY_PROMPT }],
          tools: undefined,
          offered: NO_TOOLS,
          params,
          signal,
          cache,
        },
        (tokens) => recordDiscardedUsage(rt, recorder, tokens, ref, ctx.budget),
      );
      const sent = estimateMessagesTokens(history);
      if (!isContextOverflow(streamed.error) || signal.aborted || attempt >= MAX_SUMMARY_ATTEMPTS || sent <= 1) break;
      const smaller = Math.floor(Math.min(limit, sent) / 2);
      // Nothing more can be left out (one turn alone is too long): the overflow stands.
      if (estimateMessagesTokens(fitForSummary(view, smaller)) >= sent) break;
      recorder.remove(recorder.parts.slice(start));
      limit = smaller;
    }
    recordStepUsage(rt, recorder, streamed, ref, ctx.budget);
    const error = summaryError(streamed.error, streamed.finishReason, recorder.parts, signal);
    if (error) {
      info.error = error;
      info.finish = "error";
    }
  } catch (error) {
    info.error = toMessageError(error);
    info.finish = "error";
  }
  await closeMessage(rt, writer, recorder);
  if (!info.error) rt.emit({ type: "session.compacted", sessionID, messageID: info.id, auto: options.auto });
  return { user: { info: userInfo, parts: [marker] }, summary: { info, parts: recorder.parts } };
}

/** Summary requests sent at most when each is rejected as too long (the history halved each time). */
const MAX_SUMMARY_ATTEMPTS = 6;
/** The share of a rejected request's estimated size a summary's history starts from. */
const REJECTED_SHARE = 0.6;

/** How many tokens of history the summary request may carry: the compaction model's usable window minus its own prompts. */
function summaryInputLimit(rt: AgentRuntime, ref: ModelRef, system: string): number {
  const usable = usableContext(rt.facts(ref), rt.options.maxOutputTokens);
  return usable === undefined ? Number.POSITIVE_INFINITY : usable - estimateTokens(system) - estimateTokens(SUMMARY_PROMPT);
}

/**
 * The history as the summary request carries it: whole when it fits; else with tool outputs
 * cleared, oldest first, in this request only (storage and the model's view keep them); else
 * without its oldest turns as well (an earlier summary, which comes first, stays). An overflowing
 * history must still be summarisable, or compaction could never help.
 */
export function fitForSummary(view: MessageWithParts[], limit: number): MessageWithParts[] {
  let total = estimateMessagesTokens(view);
  if (total <= limit) return view;
  const out = view.map((m) => ({ info: m.info, parts: m.parts.slice() }));
  for (const message of out) {
    for (let i = 0; i < message.parts.length && total > limit; i++) {
      const part = message.parts[i]!;
      if (part.type !== "tool" || part.state.status !== "completed" || part.state.time.compacted !== undefined) continue;
      const cleared = { ...part, state: { ...part.state, time: { ...part.state.time, compacted: Date.now() } } };
      total -= estimatePartTokens(part) - estimatePartTokens(cleared);
      message.parts[i] = cleared;
    }
    if (total <= limit) return out;
  }
  // Drop whole turns from the front (after an earlier compaction and its summary), so the request still starts with the user.
  const start = out[0] && out[0].parts.some((p) => p.type === "compaction") ? 2 : 0;
  const keep = out.slice(0, start);
  let rest = out.slice(start);
  while (total > limit && rest.length > 1) {
    let next = 1;
    while (next < rest.length && rest[next]!.info.role !== "user") next++;
    if (next >= rest.length) break;
    total -= estimateMessagesTokens(rest.slice(0, next));
    rest = rest.slice(next);
  }
  return [...keep, ...rest];
}

function summaryError(error: unknown, finishReason: string | undefined, parts: Part[], signal: AbortSignal): MessageError | undefined {
  if (signal.aborted) return { name: "AbortedError", message: "The summary was aborted." };
  if (error !== undefined) {
    if (isContextOverflow(error)) {
      return {
        name: "ContextOverflowError",
        message: "The session is too long even for its summary: the summary request overflowed the model's context window too.",
        data: { cause: toMessageError(error).message },
      };
    }
    return toMessageError(error);
  }
  const stop = finishError(finishReason);
  if (stop) return { ...stop, message: `The summary failed: ${stop.message}` };
  const text = parts.some((p) => p.type === "text" && p.text.trim() !== "");
  if (!text) return { name: "EmptySummaryError", message: "The model answered the summary request with no text." };
  return undefined;
}

/**
 * The request to answer again after a compaction mid-turn: a copy of the turn's user message (its
 * earlier replay note left out) with a note that the work goes on from the summary.
 */
export function replayOf(request: MessageWithParts, sessionID: string): MessageWithParts {
  const info: UserMessage = { ...structuredClone(request.info as UserMessage), id: createId("message"), time: { created: Date.now() } };
  const parts: Part[] = [];
  for (const part of request.parts) {
    if (part.type === "text" && part.synthetic && part.text === REPLAY_NOTE) continue;
    if (part.type !== "text" && part.type !== "file" && part.type !== "agent" && part.type !== "subtask") continue;
    parts.push({ ...structuredClone(part), id: createId("part"), sessionID, messageID: info.id });
  }
  parts.push({ id: createId("part"), sessionID, messageID: info.id, type: "text", text: REPLAY_NOTE, synthetic: true });
  return { info, parts };
}
