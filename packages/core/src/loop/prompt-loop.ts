import { readFile } from "node:fs/promises";
import { basename } from "node:path";
import { fileURLToPath } from "node:url";
import { createId, modelView, selectTail, tailBudget, type MessageWithParts, type Part, type Session, type UserMessage } from "@lathe/message";
import type { ToolContext } from "@lathe/tools";
import { evaluate } from "@lathe/permission";
import { BudgetTracker } from "../context/budget.js";
import { summarise } from "./compaction.js";
import { runHooks } from "../agents/hooks.js";
import { expandReferences } from "../agents/references.js";
import { afterRevert, droppedByRevert } from "../session/file-history.js";
import { stateAccessor } from "./tool-state.js";
import { BudgetExceededError, InvalidInputError, SessionBusyError, SessionNotFoundError } from "../errors.js";
import { toMessageError } from "./message-error.js";
import type { PromptInput, PromptOptions } from "../options.js";
import { usableContext } from "../context/overflow.js";
import { countRepaired, repairInterrupted } from "./repair.js";
import type { RunResult } from "./run.js";
import type { AgentRuntime } from "./runtime.js";
import { SessionWriter } from "../session/session-writer.js";
import { isDefaultTitle } from "../session/session-title.js";
import { DEFAULT_AGENT, sessionBudget, current, finishTurn, fail, newAnswer, sessionDataDir } from "./turn-common.js";
import { turnEnvironment } from "./turn-environment.js";
import { drive } from "./drive.js";
import { resumeTurn } from "./resume-turn.js";
import { activeMode, enterMode } from "./turn-mode.js";
import { subtaskCalls } from "./command-subtask.js";
import { modelRef } from "../context/model-info.js";

/** What a run does once it holds the session: answer a new prompt, or resume an interrupted turn. */
export type TurnRequest =
  | { kind: "prompt"; input: PromptInput; options: PromptOptions }
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
      result = await answer(rt, writer, session, history, request.input, request.options, signal);
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
  signal: AbortSignal,
): Promise<RunResult> {
  const agentName = options.agent ?? DEFAULT_AGENT;
  const { ref } = options.model ? { ref: modelRef(options.model) } : rt.modelFor(agentName);
  if (options.messageID !== undefined && history.some((m) => m.info.id === options.messageID)) {
    throw new InvalidInputError(`Session ${session.id} already has a message ${options.messageID}: this prompt is stored.`);
  }
  const user = userMessage(session.id, agentName, input, options);
  user.info.mode = activeMode(rt, session, options.mode);
  if (options.model) user.info.model = ref;
  enterMode(rt, session.id, user.info.mode, user.info.id);
  await inlineLocalFiles(user.parts);
  // References are expanded in what the user typed: the prompt string, or each text part given (not
  // synthetic ones), a file or agent named twice expanded once.
  const typed = typeof input === "string" ? [input] : input.flatMap((p) => (p.type === "text" && !p.synthetic ? [p.text] : []));
  const offersTask = rt.toolsFor(agentName).has("task");
  const context = {
    cwd: rt.cwd,
    agents: rt.agents,
    toolContext: referenceToolContext(rt, session.id, user.info.id, agentName, signal),
    canDelegate: (name: string) => offersTask && name !== agentName && evaluate("task", name, rt.permissions.ruleset(agentName)).action !== "deny",
  };
  const expandedOnce = new Set<string>();
  for (const text of typed) {
    for (const part of await expandReferences(text, context)) {
      const key = part.type === "agent" ? `agent:${part.name}` : part.type === "file" && part.source ? `file:${part.source.path}` : undefined;
      if (key !== undefined && expandedOnce.has(key)) continue;
      if (key !== undefined) expandedOnce.add(key);
      user.parts.push({ ...part, id: createId("part"), sessionID: session.id, messageID: user.info.id } as Part);
    }
  }
  // The environment joins the prompt when it changed since the one the model last saw.
  const environment = turnEnvironment(rt, history);
  if (environment !== undefined) user.info.environment = environment;
  let hookError: unknown;
  try {
    await runHooks(rt.hooks, "chat.message", { sessionID: session.id, agent: agentName }, { message: user.info, parts: user.parts });
  } catch (error) {
    hookError = error;
  }
  await rt.updater.touch(session.id, { messages: [user.info], parts: user.parts });
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

/**
 * A tool context for reading the files a prompt references. Reads go through the agent's rules like
 * any other (a host relaying remote users' prompts must not leak `.env` or files outside the workspace).
 */
export function referenceToolContext(rt: AgentRuntime, sessionID: string, messageID: string, agent: string, signal: AbortSignal): ToolContext {
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
    ...(rt.options.files ? { files: rt.options.files } : {}),
  };
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
    id: options.messageID ?? createId("message"),
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
      : item.type === "subtask"
        ? { ...base(), type: "subtask", agent: item.agent, description: item.description, prompt: item.prompt }
        : { ...base(), type: "file", url: item.url, mime: item.mime, ...(item.filename ? { filename: item.filename } : {}) },
  );
  return { info, parts };
}
