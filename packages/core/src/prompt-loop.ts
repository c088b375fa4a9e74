import { readFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { tool as aiTool, type ModelMessage, type ToolSet } from "ai";
import {
  createId,
  emptyTokens,
  INTERRUPTED_TOOL_RESULT,
  modelView,
  selectTail,
  tailBudget,
  toModelMessages,
  type AssistantMessage,
  type Limits,
  type MessageWithParts,
  type ModelRef,
  type Part,
  type Session,
  type UserMessage,
} from "@lathe/message";
import type { Tool, ToolContext } from "@lathe/tools";
import { BudgetTracker, budgetMessage, type BudgetHit } from "./budget.js";
import { COMPACTION_AGENT, pruneToolOutputs, replayOf, summarise, type CompactionContext } from "./compaction.js";
import { runHooks, type ChatParams } from "./hooks.js";
import { expandReferences } from "./references.js";
import { afterRevert, droppedByRevert } from "./file-history.js";
import { erroredState, stateAccessor } from "./tool-state.js";
import { BudgetExceededError, InvalidInputError, NothingToResumeError, SessionBusyError, SessionNotFoundError } from "./errors.js";
import { abortedError, finishError, toMessageError } from "./message-error.js";
import type { PromptInput, PromptOptions } from "./options.js";
import { inputLimit, needsCompaction, nextRequestEstimate, usableContext } from "./overflow.js";
import { isContextOverflow } from "./provider-errors.js";
import { repairInterrupted } from "./repair.js";
import type { RunResult } from "./run.js";
import type { AgentRuntime } from "./runtime.js";
import { SessionWriter } from "./session-writer.js";
import { isDefaultTitle } from "./session-title.js";
import { optional, streamStepWithRetries } from "./step-attempts.js";
import { buildSystemPrompt, MAX_STEPS_PROMPT } from "./system-prompt.js";
import { ABORTED_TOOL_ERROR, runToolCalls, type ToolCall } from "./tool-runner.js";
import { TurnRecorder } from "./turn-recorder.js";
import { closeMessage, recordDiscardedUsage, recordStepUsage } from "./turn-usage.js";

const DEFAULT_AGENT = "build";
const NO_TOOLS: ReadonlyMap<string, Tool> = new Map();

/** What a run does once it holds the session: answer a new prompt, or resume an interrupted turn. */
export type TurnRequest =
  | { kind: "prompt"; input: PromptInput; options: PromptOptions }
  | { kind: "resume"; options: PromptOptions }
  | { kind: "compact"; options: PromptOptions };

/**
 * Runs a turn in a session: takes the session's lease, then either stores the new user message and
 * answers it, or resumes the turn a previous process left waiting for approval. Streams steps and runs
 * their tool calls until the model answers in text, the run is aborted, an error stops it, or the
 * step limit is reached. Always finishes the assistant message and releases the lease.
 */
export async function runTurn(
  rt: AgentRuntime,
  sessionID: string,
  request: TurnRequest,
  signal: AbortSignal,
  /** Called once the session's lease is held and the session is reported busy. */
  onBusy: () => void = () => {},
): Promise<RunResult> {
  const lease = await rt.storage.acquireLease(sessionID, rt.leaseOwner, leaseTtl(rt));
  if (!lease) throw new SessionBusyError(sessionID, await rt.storage.getLease?.(sessionID).catch(() => undefined));
  onBusy();
  const renew = setInterval(() => {
    rt.storage.renewLease(sessionID, rt.leaseOwner, leaseTtl(rt)).catch(() => {});
  }, leaseTtl(rt) / 3);
  renew.unref?.();
  rt.emit({ type: "session.status", sessionID, status: { type: "busy" } });
  const writer = new SessionWriter(rt.storage, rt.options.flushIntervalMs ?? 250);
  rt.writers.set(sessionID, writer);
  try {
    const session = await rt.storage.getSession(sessionID);
    if (!session) throw new SessionNotFoundError(sessionID);
    let history = await rt.storage.listMessages(sessionID);
    if (request.kind === "resume") return await resume(rt, writer, session, history, request.options, signal);
    if (request.kind === "compact") {
      // A compaction that cannot run must not commit a revert or end a waiting turn on its way out.
      const budget = sessionBudget(rt, session);
      assertCompactable(session, history, budget);
      history = await settleHistory(rt, session, history);
      return await compactOnDemand(rt, writer, session, history, budget, signal);
    }
    history = await settleHistory(rt, session, history);
    return await answer(rt, writer, session, history, request.input, request.options, signal);
  } finally {
    clearInterval(renew);
    rt.writers.delete(sessionID);
    await rt.storage.releaseLease(sessionID, rt.leaseOwner).catch(() => {});
    // `session.status: idle` is emitted by the agent once the run is gone, so a listener may start the next prompt.
  }
}

/**
 * What a new turn starts from: a pending revert made final, turns a previous process left unfinished
 * ended as interrupted (their waiting approvals dropped), and the session's approvals restored.
 */
async function settleHistory(rt: AgentRuntime, session: Session, history: MessageWithParts[]): Promise<MessageWithParts[]> {
  if (session.revert) history = await commitRevert(rt, session, history);
  const repaired = repairInterrupted(history);
  if (repaired) {
    await rt.storage.write(repaired);
    // Requests of turns just finished as interrupted can never be answered usefully: drop them.
    const dead = new Set((repaired.messages ?? []).map((m) => m.id));
    if (session.permission?.pending.some((r) => r.tool && dead.has(r.tool.messageID))) {
      const updated = await rt.updater.update(session.id, (current) => {
        if (current.permission) current.permission.pending = current.permission.pending.filter((r) => !r.tool || !dead.has(r.tool.messageID));
      });
      if (updated) session.permission = updated.permission;
    }
  }
  rt.permissions.restore(session);
  return history;
}

/**
 * Summarises a session on request (`agent.sessions.compact`): the whole view but its most recent
 * turns, which stay verbatim. Old tool outputs are not pruned first: the summary should see them.
 */
async function compactOnDemand(
  rt: AgentRuntime,
  writer: SessionWriter,
  session: Session,
  history: MessageWithParts[],
  budget: BudgetTracker,
  signal: AbortSignal,
): Promise<RunResult> {
  const view = modelView(history);
  const { ref } = rt.modelFor(DEFAULT_AGENT);
  const usable = usableContext(rt.facts(ref), rt.options.maxOutputTokens);
  const tail = selectTail(view, { budgetTokens: tailBudget(usable ?? Number.POSITIVE_INFINITY) });
  const { summary } = await summarise({ rt, writer, sessionID: session.id, signal, budget }, view, { auto: false, tail });
  return summary;
}

/**
 * Refuses an on-demand compaction that would do nothing (no answer since the start or the last
 * summary, counting a pending revert) or spend past a budget already reached.
 */
function assertCompactable(session: Session, history: MessageWithParts[], budget: BudgetTracker): void {
  const view = modelView(session.revert ? afterRevert(history, session.revert) : history);
  const summaryAt = view.findIndex((m) => m.info.role === "assistant" && m.info.summary === true);
  const newer = view.slice(summaryAt + 1).filter((m) => summaryAt < 0 || m.info.id > view[summaryAt]!.info.id);
  if (!newer.some((m) => m.info.role === "assistant")) {
    throw new InvalidInputError(`Session ${session.id} has nothing to compact: no answer since its start or its last summary.`);
  }
  const hit = budget.reached();
  if (hit) throw new BudgetExceededError(hit);
}

/** The budgets a session's work runs under: a prompt's own limits, the session's over the agent's, and a running parent turn's. */
function sessionBudget(rt: AgentRuntime, session: Session, prompt?: Limits): BudgetTracker {
  const parentID = rt.parentOf(session.id);
  return new BudgetTracker(session.id, { prompt, session, agent: rt.options.limits }, parentID === undefined ? undefined : rt.budgets.get(parentID));
}

/** The first prompt after a revert drops the reverted messages for good. */
async function commitRevert(rt: AgentRuntime, session: Session, history: MessageWithParts[]): Promise<MessageWithParts[]> {
  const revert = session.revert!;
  await rt.storage.write(droppedByRevert(history, revert));
  await rt.updater.update(session.id, (current) => {
    delete current.revert;
  });
  delete session.revert;
  return afterRevert(history, revert);
}

function leaseTtl(rt: AgentRuntime): number {
  return rt.options.leaseTtlMs ?? 30_000;
}

async function answer(
  rt: AgentRuntime,
  writer: SessionWriter,
  session: Session,
  history: MessageWithParts[],
  input: PromptInput,
  options: PromptOptions,
  signal: AbortSignal,
): Promise<RunResult> {
  const agentName = options.agent ?? DEFAULT_AGENT;
  const { ref } = rt.modelFor(agentName);
  const user = userMessage(session.id, agentName, input, options);
  await inlineLocalFiles(user.parts);
  if (typeof input === "string") {
    const expanded = await expandReferences(input, {
      cwd: rt.cwd,
      agents: rt.agents,
      toolContext: referenceToolContext(rt, session.id, user.info.id, agentName, signal),
    });
    for (const part of expanded) user.parts.push({ ...part, id: createId("part"), sessionID: session.id, messageID: user.info.id } as Part);
  }
  let hookError: unknown;
  try {
    await runHooks(rt.hooks, "chat.message", { sessionID: session.id, agent: agentName }, { message: user.info, parts: user.parts });
  } catch (error) {
    hookError = error;
  }
  writer.message(user.info);
  for (const part of user.parts) writer.part(part);
  await writer.flush();
  rt.emit({ type: "message.updated", sessionID: session.id, message: user.info });
  for (const part of user.parts) rt.emit({ type: "message.part.updated", sessionID: session.id, part });

  if (!history.some((m) => m.info.role === "user") && isDefaultTitle(session.title)) rt.titles.start(session.id, promptText(user.parts));

  const recorder = newAnswer(rt, writer, session.id, user.info.id, agentName, ref);
  if (hookError !== undefined) {
    fail(rt, recorder, toMessageError(hookError));
    return finishTurn(rt, writer, recorder, signal);
  }
  return drive(rt, writer, session, [...history, user], recorder, [], options, signal);
}

/**
 * Continues a turn a previous process left unfinished while a tool call waited for approval: those
 * calls run again (their `ask` attaches to the stored request, answered before or after the
 * restart), every other unfinished call is recorded as interrupted, and the loop goes on.
 */
async function resume(
  rt: AgentRuntime,
  writer: SessionWriter,
  session: Session,
  history: MessageWithParts[],
  options: PromptOptions,
  signal: AbortSignal,
): Promise<RunResult> {
  const last = history[history.length - 1];
  if (!last || last.info.role !== "assistant" || last.info.time.completed !== undefined) {
    throw new NothingToResumeError(session.id);
  }
  rt.permissions.restore(session);
  const info = last.info;
  const waiting = rt.permissions.takeResumableCalls(session);
  const recorder = new TurnRecorder(info, writer, (event) => rt.emit(event), last.parts);
  const calls: ToolCall[] = [];
  const interrupted: Part[] = [];
  for (const part of recorder.parts) {
    if (part.type !== "tool" || (part.state.status !== "pending" && part.state.status !== "running")) continue;
    const tool = rt.tools.get(part.tool);
    if (tool && part.state.status === "running" && waiting.has(part.callID)) calls.push({ part, tool, input: part.state.input });
    else interrupted.push(part);
  }
  cancelCalls(recorder, interrupted, INTERRUPTED_TOOL_RESULT);
  const agent = options.agent ?? info.agent;
  return drive(rt, writer, session, history.slice(0, -1), recorder, calls, { ...options, agent }, signal);
}

/** What a turn is working on: the assistant message being written, and the messages before it. */
interface TurnState {
  recorder: TurnRecorder;
  prior: MessageWithParts[];
  /** True from a compaction until the next step ends: a second overflow then means compaction cannot help. */
  justCompacted: boolean;
}

/** The step loop shared by new and resumed turns; `pending` are calls to run before the first step. */
async function drive(
  rt: AgentRuntime,
  writer: SessionWriter,
  session: Session,
  priorMessages: MessageWithParts[],
  recorder: TurnRecorder,
  pending: ToolCall[],
  options: PromptOptions,
  signal: AbortSignal,
): Promise<RunResult> {
  const turn: TurnState = { recorder, prior: priorMessages, justCompacted: false };
  const agentName = options.agent ?? DEFAULT_AGENT;
  const definition = rt.agents.get(agentName);
  const { model, ref } = rt.modelFor(agentName);
  const hookContext = { sessionID: session.id, agent: agentName };
  // Read from the workspace once per turn (instruction files, listing); each step gets its own copy
  // for the chat.system hooks to change.
  const baseSystem = buildSystemPrompt({
    model: ref,
    cwd: rt.cwd,
    agentPrompt: definition.prompt,
    instructions: instructionList(rt),
    instructionFiles: rt.options.instructionFiles,
    system: options.system,
  });
  const maxSteps = options.maxSteps ?? definition.steps ?? rt.options.maxSteps;
  const offered = rt.toolsFor(agentName);
  const toolSet = aiToolSet(offered);
  const budget = sessionBudget(rt, session, options.limits);
  rt.budgets.set(session.id, budget);
  const usable = usableContext(rt.facts(ref), rt.options.maxOutputTokens);
  const contextWindow = inputLimit(rt.facts(ref));
  const autoCompact = rt.options.compaction?.auto !== false;
  const compaction: CompactionContext = { rt, writer, sessionID: session.id, signal, budget };
  const runCalls = (calls: ToolCall[]) =>
    runToolCalls(calls, {
      recorder: turn.recorder,
      gate: rt.permissions,
      agent: agentName,
      cwd: rt.cwd,
      signal,
      maxParallel: rt.options.maxParallelTools ?? 8,
      emit: (event) => rt.emit(event),
      sessionState: rt.sessionState(session.id),
      hooks: rt.hooks,
      dataDir: sessionDataDir(rt, session.id),
      todos: {
        get: async () => (await rt.storage.getSession(session.id))?.todos ?? [],
        set: async (todos) => {
          await rt.updater.update(session.id, (current) => {
            current.todos = todos;
          });
        },
      },
    });
  /** Compacts mid-turn; false when the turn must end (the failure is recorded). */
  const relieve = (estimate: number) => relieveOverflow(rt, writer, turn, compaction, { agent: agentName, ref, usable, estimate });

  try {
    let stop = false;
    if (pending.length > 0) {
      const outcome = await runCalls(pending);
      await writer.flush();
      stop = outcome.rejected;
      if (outcome.rejected) turn.recorder.message.error ??= { name: "RejectedError", message: "The user rejected a tool call; the turn stopped." };
    }
    for (let step = 1; !stop; step++) {
      if (signal.aborted) break;
      const hit = budget.reached();
      if (hit) {
        stopForBudget(rt, turn.recorder, budget, hit);
        break;
      }
      const lastStep = maxSteps !== undefined && step >= maxSteps;
      const system = { system: [...baseSystem] };
      await runHooks(rt.hooks, "chat.system", { ...hookContext, model: ref }, system);
      const instructions = system.system.join("\n\n");
      if (autoCompact && usable !== undefined && contextWindow !== undefined) {
        const view = modelView([...turn.prior, current(turn)]);
        if (needsCompaction(view, instructions, usable, contextWindow)) {
          if (!(await relieve(nextRequestEstimate(view, instructions)))) break;
          // The summary's request counts toward the budgets too: it may have spent what was left.
          const spent = budget.reached();
          if (spent) {
            stopForBudget(rt, turn.recorder, budget, spent);
            break;
          }
        }
      }
      const messages: ModelMessage[] = toModelMessages(modelView([...turn.prior, current(turn)]), { model: ref });
      if (lastStep) messages.push({ role: "user", content: MAX_STEPS_PROMPT });
      const params: ChatParams = {
        ...optional("temperature", definition.temperature ?? rt.options.temperature),
        ...optional("topP", definition.topP ?? rt.options.topP),
        ...optional("maxOutputTokens", rt.options.maxOutputTokens),
        providerOptions: structuredClone(rt.options.providerOptions ?? {}),
        headers: { ...rt.options.headers },
      };
      await runHooks(rt.hooks, "chat.params", { ...hookContext, model: ref }, params);
      const before = await rt.snapshots.track();

      const recorder = turn.recorder;
      const stepStart = recorder.parts.length;
      const streamed = await streamStepWithRetries(
        rt,
        recorder,
        {
          model,
          instructions,
          messages,
          // The last step a limit allows gets no tools at all: the model must answer in text, and any
          // call it makes anyway is an unknown tool.
          tools: offered.size > 0 && !lastStep ? toolSet : undefined,
          offered: lastStep ? NO_TOOLS : offered,
          params,
          snapshot: before,
          signal,
        },
        (tokens) => recordDiscardedUsage(rt, recorder, tokens, ref, budget),
      );
      await completeTexts(rt, recorder, recorder.parts.slice(stepStart), hookContext);
      recordStepUsage(rt, recorder, streamed, ref, budget);
      if (signal.aborted) break;
      if (streamed.error !== undefined) {
        if (isContextOverflow(streamed.error)) {
          // The provider counted what our estimate did not: compact and send the step again.
          recorder.remove(recorder.parts.slice(stepStart).filter((p) => p.type !== "step-finish"));
          if (autoCompact && !turn.justCompacted && (await relieve(usable ?? Number.POSITIVE_INFINITY))) {
            step--;
            continue;
          }
          if (!recorder.message.error) fail(rt, recorder, overflowError(streamed.error));
          break;
        }
        fail(rt, recorder, toMessageError(streamed.error));
        break;
      }
      turn.justCompacted = false;
      const stopError = finishError(streamed.finishReason);
      if (stopError) {
        cancelCalls(recorder, streamed.calls.map((c) => c.part), "The step ended before this call could run.");
        fail(rt, recorder, stopError);
        break;
      }
      if (lastStep) break;
      const spent = budget.reached();
      if (spent && streamed.calls.length > 0) {
        // Nothing more runs once a budget is spent; each call still gets a result for the model.
        cancelCalls(recorder, streamed.calls.map((c) => c.part), "Not run: the turn's budget was reached.");
        stopForBudget(rt, recorder, budget, spent);
        break;
      }
      const outcome = await runCalls(streamed.calls);
      await recordPatch(rt, recorder, before);
      // The step's final states are stored before the next step starts.
      await writer.flush();
      if (outcome.rejected) recorder.message.error ??= { name: "RejectedError", message: "The user rejected a tool call; the turn stopped." };
      if (signal.aborted || outcome.rejected) break;
      if (streamed.calls.length === 0 && streamed.invalidCalls === 0) break;
    }
  } catch (error) {
    if (!signal.aborted) fail(rt, turn.recorder, toMessageError(error));
  } finally {
    if (rt.budgets.get(session.id) === budget) rt.budgets.delete(session.id);
  }

  return finishTurn(rt, writer, turn.recorder, signal);
}

/** The message a turn is writing, as a history entry. */
function current(turn: TurnState): MessageWithParts {
  return { info: turn.recorder.message, parts: turn.recorder.parts };
}

/**
 * Makes room when the next request would overflow: old tool outputs are pruned first; when that is
 * not enough the history is summarised, the message in progress is closed (finish `compacted`) and
 * the turn goes on in a new message answering a replay of the user's request. Returns false when the
 * turn must end: a summary that fails, or a history still too long right after a compaction.
 */
async function relieveOverflow(
  rt: AgentRuntime,
  writer: SessionWriter,
  turn: TurnState,
  ctx: CompactionContext,
  at: { agent: string; ref: ModelRef; usable: number | undefined; estimate: number },
): Promise<boolean> {
  const recorder = turn.recorder;
  const view = modelView([...turn.prior, current(turn)]);
  const freed = await pruneToolOutputs(ctx, view);
  if (freed > 0 && at.usable !== undefined && at.estimate - freed < at.usable) return true;
  if (turn.justCompacted) {
    fail(rt, recorder, overflowError(undefined));
    return false;
  }
  const request = view.findLast((m) => m.info.role === "user" && m.info.agent !== COMPACTION_AGENT);
  const tail = selectTail(view, { budgetTokens: tailBudget(at.usable ?? Number.POSITIVE_INFINITY), ...(request ? { before: request.info.id } : {}) });
  const { user, summary } = await summarise(ctx, view, { auto: true, tail });
  if (summary.info.error) {
    fail(rt, recorder, summary.info.error);
    return false;
  }
  recorder.message.finish = "compacted";
  await closeMessage(rt, writer, recorder);
  const prior = [...turn.prior, current(turn), user, summary];
  let parentID = user.info.id;
  if (request) {
    const replay = replayOf(request, recorder.message.sessionID);
    writer.message(replay.info);
    for (const part of replay.parts) writer.part(part);
    rt.emit({ type: "message.updated", sessionID: replay.info.sessionID, message: structuredClone(replay.info) });
    for (const part of replay.parts) rt.emit({ type: "message.part.updated", sessionID: part.sessionID, part: { ...part } });
    prior.push(replay);
    parentID = replay.info.id;
  }
  turn.prior = prior;
  turn.recorder = newAnswer(rt, writer, recorder.message.sessionID, parentID, at.agent, at.ref);
  turn.justCompacted = true;
  await writer.flush();
  return true;
}

/** The error of a context window that compaction could not make room in. */
function overflowError(cause: unknown): AssistantMessage["error"] & object {
  return {
    name: "ContextOverflowError",
    message: "The conversation no longer fits the model's context window, even after compaction.",
    ...(cause !== undefined ? { data: { cause: toMessageError(cause).message } } : {}),
  };
}

/** Ends a turn on a budget: finish `budget`, the typed reason as the error, a `budget.exceeded` event. */
function stopForBudget(rt: AgentRuntime, recorder: TurnRecorder, budget: BudgetTracker, hit: BudgetHit): void {
  const info = recorder.message;
  info.finish = "budget";
  info.error = { name: "BudgetExceededError", message: budgetMessage(hit), data: { ...hit } };
  budget.stop(hit);
  recorder.messageChanged();
  rt.emit({ type: "budget.exceeded", sessionID: info.sessionID, messageID: info.id, budget: hit });
}

/** Ends a turn: unfinished calls of an aborted run become errors, the message is completed and stored, the session's usage grows. */
async function finishTurn(rt: AgentRuntime, writer: SessionWriter, recorder: TurnRecorder, signal: AbortSignal): Promise<RunResult> {
  const info = recorder.message;
  if (signal.aborted) {
    cancelCalls(recorder, recorder.parts, ABORTED_TOOL_ERROR);
    info.finish = "aborted";
    info.error ??= abortedError(signal.reason);
  }
  await closeMessage(rt, writer, recorder);
  return { info, parts: recorder.parts };
}

/** Records the files a step changed (by any means) as a `patch` part, and the tree at its end on the step-finish part. */
async function recordPatch(rt: AgentRuntime, recorder: TurnRecorder, before: string | undefined): Promise<void> {
  if (before === undefined) return;
  const after = await rt.snapshots.track();
  if (after === undefined) return;
  const finish = recorder.parts.findLast((p) => p.type === "step-finish");
  if (finish?.type === "step-finish") {
    finish.snapshot = after;
    recorder.changed(finish);
  }
  if (after === before) return;
  const files = await rt.snapshots.changed(before, after);
  if (files.length > 0) recorder.add({ type: "patch", hash: before, files });
}

/**
 * Reads attached `file:` URLs into `data:` URLs, so the stored message carries the file itself: a
 * provider cannot fetch a local path, and the file may change or vanish before the session resumes.
 */
async function inlineLocalFiles(parts: Part[]): Promise<void> {
  for (const part of parts) {
    if (part.type !== "file" || !part.url.startsWith("file:")) continue;
    const path = fileURLToPath(part.url);
    const bytes = await readFile(path).catch((error: unknown) => {
      throw new InvalidInputError(`The attached file ${path} cannot be read: ${error instanceof Error ? error.message : String(error)}`);
    });
    part.url = `data:${part.mime};base64,${bytes.toString("base64")}`;
    part.filename ??= basename(path);
  }
}

/** Runs the `text.complete` hooks over the text parts a step finished. */
async function completeTexts(rt: AgentRuntime, recorder: TurnRecorder, parts: Part[], context: { sessionID: string; agent: string }): Promise<void> {
  if (!rt.hooks?.["text.complete"]) return;
  for (const part of parts) {
    if (part.type !== "text" || part.synthetic) continue;
    const output = { text: part.text };
    await runHooks(rt.hooks, "text.complete", { ...context, messageID: part.messageID, partID: part.id }, output);
    if (output.text !== part.text) {
      part.text = output.text;
      recorder.changed(part);
    }
  }
}

/**
 * A tool context for reading the files a prompt references. Reads go through the agent's rules like
 * any other (a host relaying remote users' prompts must not leak `.env` or files outside the workspace).
 */
function referenceToolContext(rt: AgentRuntime, sessionID: string, messageID: string, agent: string, signal: AbortSignal): ToolContext {
  return {
    sessionID,
    messageID,
    callID: "reference",
    agent,
    cwd: rt.cwd,
    abort: signal,
    ask: (request) =>
      rt.permissions.ask({
        sessionID,
        agent,
        permission: request.permission,
        patterns: request.patterns,
        always: request.always ?? request.patterns,
        metadata: request.metadata ?? {},
        signal,
      }),
    metadata: () => {},
    emit: () => {},
    dataDir: sessionDataDir(rt, sessionID),
    state: stateAccessor(rt.sessionState(sessionID)),
  };
}

/** The private directory of a session's tool files. */
export function sessionDataDir(rt: AgentRuntime, sessionID: string): string {
  return join(rt.dataDir, "sessions", sessionID);
}

function instructionList(rt: AgentRuntime): string[] {
  const given = rt.options.instructions;
  return given === undefined ? [] : Array.isArray(given) ? given : [given];
}

function fail(rt: AgentRuntime, recorder: TurnRecorder, error: AssistantMessage["error"] & object): void {
  recorder.message.error = error;
  recorder.message.finish ??= "error";
  if (recorder.message.finish === "tool-calls" || recorder.message.finish === "stop") recorder.message.finish = "error";
  rt.emit({ type: "session.error", sessionID: recorder.message.sessionID, messageID: recorder.message.id, error });
}

/** Marks calls that will never run as errors, so the model sees a result for each. */
function cancelCalls(recorder: TurnRecorder, parts: Part[], message: string): void {
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
function newAnswer(rt: AgentRuntime, writer: SessionWriter, sessionID: string, parentID: string, agent: string, ref: ModelRef): TurnRecorder {
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

/** The text of a prompt, for its title. */
function promptText(parts: Part[]): string {
  return parts.flatMap((p) => (p.type === "text" && !p.synthetic ? [p.text] : [])).join("\n");
}

function userMessage(
  sessionID: string,
  agent: string,
  input: PromptInput,
  options: PromptOptions,
): { info: UserMessage; parts: Part[] } {
  const info: UserMessage = {
    id: createId("message"),
    sessionID,
    role: "user",
    time: { created: Date.now() },
    agent,
    ...(options.system ? { system: options.system } : {}),
  };
  const items = typeof input === "string" ? [{ type: "text" as const, text: input }] : input;
  const base = () => ({ id: createId("part"), sessionID, messageID: info.id });
  const parts: Part[] = items.map((item) =>
    item.type === "text"
      ? { ...base(), type: "text", text: item.text, ...(item.synthetic ? { synthetic: true } : {}) }
      : { ...base(), type: "file", url: item.url, mime: item.mime, ...(item.filename ? { filename: item.filename } : {}) },
  );
  return { info, parts };
}

function aiToolSet(tools: ReadonlyMap<string, Tool>): ToolSet {
  const set: ToolSet = {};
  // No `execute`: the AI SDK only validates the calls; Lathe runs them with permissions and context.
  for (const [name, tool] of tools) set[name] = aiTool({ description: tool.description, inputSchema: tool.parameters as never });
  return set;
}

