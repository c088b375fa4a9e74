import { createId, modelView, selectTail, tailBudget, type MessageWithParts, type Part, type Session } from "@lathe/message";
import { BudgetTracker } from "../context/budget.js";
import { summarise } from "./compaction.js";
import { afterRevert, droppedByRevert } from "../session/file-history.js";
import { BudgetExceededError, InvalidInputError, PromptDroppedError, SessionBusyError, SessionNotFoundError } from "../errors.js";
import { buildUserMessage, dequeue } from "./user-message.js";
import { toMessageError } from "./message-error.js";
import type { PromptInput, PromptOptions } from "../options.js";
import { usableContext } from "../context/overflow.js";
import { countRepaired, repairInterrupted } from "./repair.js";
import type { RunResult } from "./run.js";
import type { AgentRuntime } from "./runtime.js";
import { SessionWriter } from "../session/session-writer.js";
import { isDefaultTitle } from "../session/session-title.js";
import { DEFAULT_AGENT, sessionBudget, current, finishTurn, fail, newAnswer } from "./turn-common.js";
import { turnEnvironment } from "./turn-environment.js";
import { drive } from "./drive.js";
import { resumeTurn } from "./resume-turn.js";
import { activeMode, enterMode } from "./turn-mode.js";
import { subtaskCalls } from "./command-subtask.js";
import { modelRef } from "../context/model-info.js";

/** How a prompt's turn reports its user message stored, and — for a queued prompt — its queue entry. */
export interface StoreNotes {
  /** The queue entry the prompt was stored as (`whileBusy: "queue"`): removed as the message is stored; a turn whose entry is gone stores nothing. */
  queuedID?: string;
  /** Called once the user message is stored, with its id. */
  onStored?: (messageID: string) => void;
}

/** What a run does once it holds the session: answer a new prompt, or resume an interrupted turn. */
export type TurnRequest =
  | ({ kind: "prompt"; input: PromptInput; options: PromptOptions } & StoreNotes)
  | { kind: "resume"; options: PromptOptions }
  | { kind: "compact"; options: PromptOptions };

/**
 * Runs a turn in a session: takes the session's lease, then either stores the new user message and
 * answers it, or resumes the turn a previous process left unfinished (`resume-turn.ts`). Streams steps and runs
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
  // A message steered in before the first step is read under the agent that will take it.
  if (request.kind === "prompt") rt.steering.enter(sessionID, request.options.agent ?? DEFAULT_AGENT);
  const renew = setInterval(() => {
    rt.storage.renewLease(sessionID, rt.leaseOwner, leaseTtl(rt)).catch(() => {});
  }, leaseTtl(rt) / 3);
  renew.unref?.();
  rt.emit({ type: "session.status", sessionID, status: { type: "busy" } });
  const writer = new SessionWriter(rt.storage, rt.options.flushIntervalMs ?? 250);
  rt.writers.set(sessionID, writer);
  try {
    const stored = await rt.storage.getSession(sessionID);
    if (!stored) throw new SessionNotFoundError(sessionID);
    // The history this agent kept from its last turn (with only what it wrote since applied), unless
    // someone else wrote the session; then it is read again.
    let history = (await rt.histories.load(stored)).messages;
    const session = stored;
    // The session is stamped with the turn's first write (a new prompt's user message goes with it),
    // so an agent that loaded the session before sees this turn, even one that dies half-way.
    if (request.kind !== "prompt") await rt.updater.touch(sessionID);
    let result: RunResult;
    if (request.kind === "resume") result = await resumeTurn(rt, writer, session, history, request.options, signal);
    else if (request.kind === "compact") {
      // A compaction that cannot run must not commit a revert or end a waiting turn on its way out.
      const budget = sessionBudget(rt, session);
      assertCompactable(session, history, budget);
      history = await settleHistory(rt, session, history);
      result = await compactOnDemand(rt, writer, session, history, budget, signal);
    } else {
      history = await settleHistory(rt, session, history);
      result = await answer(rt, writer, session, history, request.input, request.options, request, signal);
    }
    rt.histories.adopt(sessionID, { info: result.info, parts: result.parts });
    return result;
  } catch (error) {
    // What the turn changed in its history may not all be stored: read the session again next time.
    rt.histories.forget(sessionID);
    throw error;
  } finally {
    // An aborted turn may leave in memory what never reached storage (a worker fences a session's
    // writes before it aborts a turn it hands on): the next turn reads the session again.
    if (signal.aborted) rt.histories.forget(sessionID);
    rt.steering.leave(sessionID);
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
  const repaired = repairInterrupted(session, history);
  if (repaired) {
    // Requests of turns just finished as interrupted can never be answered usefully: drop them.
    const dead = new Set(repaired.messages.map((m) => m.id));
    // The repaired records and the usage they add to the session go in one write, the session last.
    const updated = await rt.updater.update(
      session.id,
      (current) => {
        countRepaired(current, repaired);
        if (current.permission) current.permission.pending = current.permission.pending.filter((r) => !r.tool || !dead.has(r.tool.messageID));
      },
      { messages: repaired.messages, parts: repaired.parts },
    );
    if (updated) {
      session.usage = updated.usage;
      session.permission = updated.permission;
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
  const { summary } = await rt.tracing.compaction(session.id, () => summarise({ rt, writer, sessionID: session.id, signal, budget }, view, { auto: false, tail }));
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
  stored: StoreNotes,
  signal: AbortSignal,
): Promise<RunResult> {
  const agentName = options.agent ?? DEFAULT_AGENT;
  const { ref } = options.model ? { ref: modelRef(options.model) } : rt.modelFor(agentName);
  if (stored.queuedID !== undefined && !session.queue?.some((entry) => entry.id === stored.queuedID)) {
    // Another process answered it after a crash, or its run was aborted: nothing answers it twice.
    throw new PromptDroppedError(session.id, "it is no longer queued");
  }
  if (options.messageID !== undefined && history.some((m) => m.info.id === options.messageID)) {
    throw new InvalidInputError(`Session ${session.id} already has a message ${options.messageID}: this prompt is stored.`);
  }
  const mode = activeMode(rt, session, options.mode);
  // The environment joins the prompt when it changed since the one the model last saw.
  const environment = turnEnvironment(rt, history);
  // The mode is entered first: reading the files the prompt references asks under it.
  const id = options.messageID ?? createId("message");
  enterMode(rt, session.id, mode, id);
  const { user, hookError } = await buildUserMessage(rt, session.id, agentName, input, options, signal, {
    id,
    mode,
    ...(options.model ? { model: ref } : {}),
    ...(environment !== undefined ? { environment } : {}),
  });
  // A queued prompt leaves the session's queue in the write that stores it as a message.
  const queued = stored.queuedID;
  if (queued !== undefined) {
    await rt.updater.update(session.id, (current) => dequeue(current, queued), { messages: [user.info], parts: user.parts });
  } else {
    await rt.updater.touch(session.id, { messages: [user.info], parts: user.parts });
  }
  stored.onStored?.(user.info.id);
  rt.emit({ type: "message.updated", sessionID: session.id, message: user.info });
  for (const part of user.parts) rt.emit({ type: "message.part.updated", sessionID: session.id, part });

  if (!history.some((m) => m.info.role === "user") && isDefaultTitle(session.title)) rt.titles.start(session.id, promptText(user.parts));

  const recorder = newAnswer(rt, writer, session.id, user.info.id, agentName, ref);
  if (hookError !== undefined) {
    fail(rt, recorder, toMessageError(hookError));
    return finishTurn(rt, writer, recorder, signal);
  }
  return drive(rt, writer, session, [...history, user], recorder, subtaskCalls(rt, recorder, user.parts, agentName), options, signal);
}

/** The text of a prompt, for its title. */
function promptText(parts: Part[]): string {
  return parts.flatMap((p) => (p.type === "text" && !p.synthetic ? [p.text] : [])).join("\n");
}

