import { readFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { streamText, tool as aiTool, type ModelMessage, type ToolSet } from "ai";
import {
  addTokens,
  createId,
  emptyTokens,
  INTERRUPTED_TOOL_RESULT,
  toModelMessages,
  type AssistantMessage,
  type MessageWithParts,
  type Part,
  type Session,
  type UserMessage,
} from "@lathe/message";
import type { Tool, ToolContext } from "@lathe/tools";
import { runHooks, type ChatParams } from "./hooks.js";
import { expandReferences } from "./references.js";
import { afterRevert, droppedByRevert } from "./file-history.js";
import { erroredState, stateAccessor } from "./tool-state.js";
import { InvalidInputError, NothingToResumeError, SessionBusyError, SessionNotFoundError } from "./errors.js";
import { abortedError, finishError, toMessageError } from "./message-error.js";
import type { PromptInput, PromptOptions } from "./options.js";
import { repairInterrupted } from "./repair.js";
import type { RunResult } from "./run.js";
import type { AgentRuntime } from "./runtime.js";
import { SessionWriter } from "./session-writer.js";
import { processStepStream as processStream } from "./stream-processor.js";
import { buildSystemPrompt, MAX_STEPS_PROMPT } from "./system-prompt.js";
import { ABORTED_TOOL_ERROR, runToolCalls, type ToolCall } from "./tool-runner.js";
import { TurnRecorder } from "./turn-recorder.js";
import { costOf, tokensFromUsage } from "./usage.js";

const DEFAULT_AGENT = "build";
const NO_TOOLS: ReadonlyMap<string, Tool> = new Map();

/** What a run does once it holds the session: answer a new prompt, or resume an interrupted turn. */
export type TurnRequest =
  | { kind: "prompt"; input: PromptInput; options: PromptOptions }
  | { kind: "resume"; options: PromptOptions };

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
  if (!lease) throw new SessionBusyError(sessionID);
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
    if (session.revert) history = await commitRevert(rt, session, history);
    const repaired = repairInterrupted(history);
    if (repaired) {
      await rt.storage.write(repaired);
      // Requests of turns just finished as interrupted can never be answered usefully: drop them.
      const dead = new Set((repaired.messages ?? []).map((m) => m.id));
      if (session.permission?.pending.some((r) => r.tool && dead.has(r.tool.messageID))) {
        const updated = await rt.updater.update(sessionID, (current) => {
          if (current.permission) current.permission.pending = current.permission.pending.filter((r) => !r.tool || !dead.has(r.tool.messageID));
        });
        if (updated) session.permission = updated.permission;
      }
    }
    rt.permissions.restore(session);
    return await answer(rt, writer, session, history, request.input, request.options, signal);
  } finally {
    clearInterval(renew);
    rt.writers.delete(sessionID);
    await rt.storage.releaseLease(sessionID, rt.leaseOwner).catch(() => {});
    // `session.status: idle` is emitted by the agent once the run is gone, so a listener may start the next prompt.
  }
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

  const info: AssistantMessage = {
    id: createId("message"),
    sessionID: session.id,
    role: "assistant",
    parentID: user.info.id,
    time: { created: Date.now() },
    providerID: ref.providerID,
    modelID: ref.modelID,
    agent: agentName,
    cwd: rt.cwd,
    tokens: emptyTokens(),
    cost: 0,
  };
  const recorder = new TurnRecorder(info, writer, (event) => rt.emit(event));
  recorder.messageChanged();
  if (hookError !== undefined) {
    fail(rt, recorder, toMessageError(hookError));
    return finishTurn(rt, writer, session, recorder, signal);
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
  const info = recorder.message;
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
  const runCalls = (calls: ToolCall[]) =>
    runToolCalls(calls, {
      recorder,
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

  try {
    let stop = false;
    if (pending.length > 0) {
      const outcome = await runCalls(pending);
      await writer.flush();
      stop = outcome.rejected;
      if (outcome.rejected) info.error ??= { name: "RejectedError", message: "The user rejected a tool call; the turn stopped." };
    }
    for (let step = 1; !stop; step++) {
      if (signal.aborted) break;
      const lastStep = maxSteps !== undefined && step >= maxSteps;
      const messages: ModelMessage[] = toModelMessages([...priorMessages, { info, parts: recorder.parts }], { model: ref });
      if (lastStep) messages.push({ role: "user", content: MAX_STEPS_PROMPT });
      const system = { system: [...baseSystem] };
      await runHooks(rt.hooks, "chat.system", { ...hookContext, model: ref }, system);
      const params: ChatParams = {
        ...optional("temperature", definition.temperature ?? rt.options.temperature),
        ...optional("topP", definition.topP ?? rt.options.topP),
        ...optional("maxOutputTokens", rt.options.maxOutputTokens),
        providerOptions: structuredClone(rt.options.providerOptions ?? {}),
        headers: { ...rt.options.headers },
      };
      await runHooks(rt.hooks, "chat.params", { ...hookContext, model: ref }, params);
      const before = await rt.snapshots.track();

      const result = streamText({
        model,
        instructions: system.system.join("\n\n"),
        messages,
        // The last step a limit allows gets no tools at all: the model must answer in text.
        ...(offered.size > 0 && !lastStep ? { tools: toolSet } : {}),
        maxRetries: 0,
        // Errors arrive as stream parts and are recorded on the message; the default handler would also log them.
        onError: () => {},
        abortSignal: signal,
        ...optional("temperature", params.temperature),
        ...optional("topP", params.topP),
        ...optional("maxOutputTokens", params.maxOutputTokens),
        ...(Object.keys(params.providerOptions).length > 0 ? { providerOptions: params.providerOptions as never } : {}),
        ...(Object.keys(params.headers).length > 0 ? { headers: params.headers } : {}),
      });
      const stepStart = recorder.parts.length;
      // On the last step no tool was offered, so any call the model makes anyway is an unknown tool.
      const streamed = await processStream(result.stream, recorder, lastStep ? NO_TOOLS : offered, before);
      await completeTexts(rt, recorder, recorder.parts.slice(stepStart), hookContext);

      if (streamed.finishReason !== undefined || streamed.usage !== undefined) {
        const tokens = tokensFromUsage(streamed.usage);
        const cost = costOf(tokens, rt.price(ref));
        recorder.add({ type: "step-finish", reason: streamed.finishReason ?? "unknown", tokens, cost });
        info.tokens = addTokens(info.tokens, tokens);
        info.cost += cost;
        info.finish = streamed.finishReason;
        recorder.messageChanged();
      }
      if (signal.aborted) break;
      if (streamed.error !== undefined) {
        fail(rt, recorder, toMessageError(streamed.error));
        break;
      }
      const stopError = finishError(streamed.finishReason);
      if (stopError) {
        cancelCalls(recorder, streamed.calls.map((c) => c.part), "The step ended before this call could run.");
        fail(rt, recorder, stopError);
        break;
      }
      if (lastStep) break;
      const outcome = await runCalls(streamed.calls);
      await recordPatch(rt, recorder, before);
      // The step's final states are stored before the next step starts.
      await writer.flush();
      if (outcome.rejected) info.error ??= { name: "RejectedError", message: "The user rejected a tool call; the turn stopped." };
      if (signal.aborted || outcome.rejected) break;
      if (streamed.calls.length === 0 && streamed.invalidCalls === 0) break;
    }
  } catch (error) {
    if (!signal.aborted) fail(rt, recorder, toMessageError(error));
  }

  return finishTurn(rt, writer, session, recorder, signal);
}

/** Ends a turn: unfinished calls of an aborted run become errors, the message is completed and stored, the session's usage grows. */
async function finishTurn(rt: AgentRuntime, writer: SessionWriter, session: Session, recorder: TurnRecorder, signal: AbortSignal): Promise<RunResult> {
  const info = recorder.message;
  if (signal.aborted) {
    cancelCalls(recorder, recorder.parts, ABORTED_TOOL_ERROR);
    info.finish = "aborted";
    info.error ??= abortedError(signal.reason);
  }
  info.time.completed = Date.now();
  recorder.messageChanged();
  await writer.flush();
  await rt.updater.update(session.id, (current) => {
    current.usage = { tokens: addTokens(current.usage.tokens, info.tokens), cost: current.usage.cost + info.cost };
  });
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

/** `{ [key]: value }` when the value is defined, else `{}` — for optional settings under exactOptionalPropertyTypes. */
function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return value === undefined ? {} : ({ [key]: value } as { [P in K]?: V });
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

