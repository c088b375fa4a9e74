import { type ModelMessage } from "ai";
import { estimateMessagesTokens, modelView, toModelMessages, type AssistantMessage, type MessageWithParts, type Part, type Session, type TextPart } from "@lathe/message";
import type { Tool } from "@lathe/tools";
import { runHooks, type ChatParams } from "../agents/hooks.js";
import { finishError, toMessageError } from "./message-error.js";
import type { PromptOptions } from "../options.js";
import { needsCompaction, nextRequestEstimate } from "../context/overflow.js";
import { isContextOverflow } from "../context/provider-errors.js";
import type { RunResult } from "./run.js";
import type { AgentRuntime } from "./runtime.js";
import { SessionWriter } from "../session/session-writer.js";
import { streamStepWithRetries } from "./step-attempts.js";
import { optional } from "./optional.js";
import type { StepRequest } from "./step-request.js";
import { systemForRequest, systemText, withCacheKey } from "../context/cache-plan.js";
import { MAX_STEPS_PROMPT } from "../agents/system-prompt.js";
import { type ToolCall } from "./tool-runner.js";
import { TurnRecorder } from "./turn-recorder.js";
import { recordDiscardedUsage, recordStepUsage } from "./turn-usage.js";
import type { StepStream } from "./stream-processor.js";
import { type TurnState, current, overflowError, stopForBudget, finishTurn, fail, cancelCalls } from "./turn-common.js";
import { type TurnPlan, planTurn, runCalls, relieve } from "./turn-plan.js";
import { StepTrees, type StepTree } from "./step-trees.js";
import { takeSteered } from "./steer-turn.js";
import { checkOutput, LAST_STEP_OUTPUT_NOTE, structuredOutput } from "./structured-output.js";

// The step loop of a turn (`drive`) as a sequence of named phases: plan, pending calls, then per
// step the budget, compaction, the model request, and the step's error or its tool calls.

const NO_TOOLS: ReadonlyMap<string, Tool> = new Map();

/** The error of a turn stopped by a rejected tool call. */
function rejectedError(): AssistantMessage["error"] & object {
  return { name: "RejectedError", message: "The user rejected a tool call; the turn stopped." };
}

/**
 * After a step: go on to the next, send the same step again (after a compaction), end the turn, or
 * end it because the model answered (unless messages were steered in meanwhile: they need an answer).
 */
type StepOutcome = "next" | "again" | "stop" | "answered";

/**
 * The step loop shared by new and resumed turns; `pending` are calls to run before the first step.
 * Each step: check the budget, compact if the request would overflow, request the model, then either
 * handle its error or run its tool calls.
 */
export async function drive(
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
  const trace = rt.tracing.turn(session.id, options.agent ?? recorder.message.agent, () => promptText(priorMessages));
  const plan = planTurn(rt, writer, session, options, signal, trace);
  const trees = new StepTrees(rt.snapshots);
  rt.steering.enter(session.id, plan.agentName);
  try {
    if (options.output) {
      plan.output = await structuredOutput(options.output, options.outputRepairs);
      plan.baseSystem.push(plan.output.instructions);
    }
    let stop = pending.length > 0 && (await runPendingCalls(plan, turn, pending));
    for (let step = 1; !stop; step++) {
      // Messages steered in since the last step go into this step's request, after its tool results.
      if (!signal.aborted && !plan.budget.reached()) await takeSteered(plan, turn);
      const outcome = await runStep(plan, turn, trees, step);
      if (outcome === "again") step--;
      stop = outcome === "stop" || (outcome === "answered" && !rt.steering.has(session.id));
    }
  } catch (error) {
    if (!signal.aborted) fail(rt, turn.recorder, toMessageError(error));
  } finally {
    rt.steering.leave(session.id);
    if (rt.budgets.get(session.id) === plan.budget) rt.budgets.delete(session.id);
  }
  // Snapshots still being taken land on their parts before the message is closed.
  await trees.settle();
  const result = await finishTurn(rt, writer, turn.recorder, signal);
  trace.end(result.info, result.parts);
  return result;
}

/** The text of the prompt a turn answers (its last user message), for a span that records contents. */
function promptText(history: MessageWithParts[]): string | undefined {
  const user = history.findLast((m) => m.info.role === "user");
  return user?.parts.flatMap((p) => (p.type === "text" ? [p.text] : [])).join("\n");
}

/** Runs the calls a resumed turn left waiting; true when the user rejected one (the turn stops). */
async function runPendingCalls(plan: TurnPlan, turn: TurnState, pending: ToolCall[]): Promise<boolean> {
  const outcome = await runCalls(plan, turn, pending);
  await plan.writer.flush();
  if (outcome.rejected) turn.recorder.message.error ??= rejectedError();
  return outcome.rejected;
}

/** One step of the turn under its span (tool calls and the AI SDK's spans nest under it). */
async function runStep(plan: TurnPlan, turn: TurnState, trees: StepTrees, step: number): Promise<StepOutcome> {
  if (plan.signal.aborted) return "stop";
  const span = plan.trace.step(step, plan.ref);
  const recorder = turn.recorder;
  const start = recorder.parts.length;
  try {
    return await stepPhases(plan, turn, trees, step, span.telemetry);
  } finally {
    span.end(turn.recorder === recorder ? recorder.parts.slice(start) : turn.recorder.parts, turn.recorder.message.error);
  }
}

/** One step of the turn, phase by phase. */
async function stepPhases(plan: TurnPlan, turn: TurnState, trees: StepTrees, step: number, telemetry: StepRequest["telemetry"]): Promise<StepOutcome> {
  const { rt, signal, budget } = plan;
  if (signal.aborted) return "stop";
  const hit = budget.reached();
  if (hit) {
    stopForBudget(rt, turn.recorder, budget, hit);
    return "stop";
  }
  const lastStep = plan.maxSteps !== undefined && step >= plan.maxSteps;
  const instructions = await stepInstructions(plan);
  if (!(await compactIfNeeded(plan, turn, instructions))) return "stop";
  // The snapshot of the step's starting tree is taken beside the request, never before it.
  const before = trees.begin();
  const { streamed, stepStart } = await requestStep(plan, turn, instructions, lastStep, before, telemetry);
  trees.fillStart(before, turn.recorder, stepStart);
  if (signal.aborted) return "stop";
  if (streamed.error !== undefined) return stepFailed(plan, turn, streamed.error, stepStart);
  turn.justCompacted = false;
  return afterStep(plan, turn, streamed, trees, before, lastStep, stepStart);
}

/**
 * The step's system prompt, after the chat.system hooks, as the request sends it (see
 * `systemForRequest`). What the hooks leave of the turn's stable sections, in order from the
 * first, stays the stable part; everything after is volatile.
 */
async function stepInstructions(plan: TurnPlan): Promise<StepRequest["instructions"]> {
  const system = { system: [...plan.baseSystem] };
  await runHooks(plan.rt.hooks, "chat.system", { ...plan.hookContext, model: plan.ref }, system);
  let stable = 0;
  while (stable < plan.stableSections && system.system[stable] === plan.baseSystem[stable]) stable++;
  return systemForRequest(plan.cache, system.system.slice(0, stable), system.system.slice(stable));
}

/** Compacts before the request when the history would overflow; false when the turn must end. */
async function compactIfNeeded(plan: TurnPlan, turn: TurnState, system: StepRequest["instructions"]): Promise<boolean> {
  const { usable, contextWindow } = plan;
  const instructions = systemText(system);
  if (!plan.autoCompact || usable === undefined || contextWindow === undefined) return true;
  const view = modelView([...turn.prior, current(turn)]);
  if (!needsCompaction(view, instructions, usable, contextWindow)) return true;
  if (!(await relieve(plan, turn, nextRequestEstimate(view, instructions)))) return false;
  // The summary's request counts toward the budgets too: it may have spent what was left.
  const spent = plan.budget.reached();
  if (spent) {
    stopForBudget(plan.rt, turn.recorder, plan.budget, spent);
    return false;
  }
  return true;
}

/** Sends the step to the model (with retries) and records what it streamed and used. */
async function requestStep(
  plan: TurnPlan,
  turn: TurnState,
  instructions: StepRequest["instructions"],
  lastStep: boolean,
  before: StepTree,
  telemetry: StepRequest["telemetry"],
): Promise<{ streamed: StepStream; stepStart: number }> {
  const { rt, definition, ref, budget, offered } = plan;
  // Steps converted for an earlier request are reused: each request converts only what changed
  // (the recorder reports parts changed in place; a compaction clears the cache).
  turn.recorder.messageCache = plan.messageCache;
  const messages: ModelMessage[] = toModelMessages(modelView([...turn.prior, current(turn)]), { model: ref, cache: plan.messageCache });
  if (plan.output?.feedback) messages.push({ role: "user", content: plan.output.feedback });
  // A structured answer is still owed on the last step: the summary it asks for goes in the JSON.
  if (lastStep) messages.push({ role: "user", content: plan.output ? `${MAX_STEPS_PROMPT}\n${LAST_STEP_OUTPUT_NOTE}` : MAX_STEPS_PROMPT });
  const params: ChatParams = {
    ...optional("temperature", definition.temperature ?? rt.options.temperature),
    ...optional("topP", definition.topP ?? rt.options.topP),
    ...optional("maxOutputTokens", rt.options.maxOutputTokens),
    // The session's cache key joins the host's options (which win) before the hooks see them.
    providerOptions: withCacheKey(structuredClone(rt.options.providerOptions ?? {}), plan.cache),
    headers: { ...rt.options.headers },
  };
  await runHooks(rt.hooks, "chat.params", { ...plan.hookContext, model: ref }, params);

  const recorder = turn.recorder;
  const stepStart = recorder.parts.length;
  const streamed = await streamStepWithRetries(
    rt,
    recorder,
    {
      model: plan.model,
      instructions,
      messages,
      // The last step a limit allows keeps the tool definitions, so its prompt begins as every
      // other step's and reads the cache; the note at its end says no call will run, and any call
      // it makes anyway is parsed against no tools (an unknown tool, not run).
      tools: offered.size > 0 ? plan.toolSet : undefined,
      offered: lastStep ? NO_TOOLS : offered,
      params,
      snapshot: before.value,
      signal: plan.signal,
      output: plan.output?.spec,
      prefix: plan.promptPrefix,
      cache: plan.cache,
      telemetry,
    },
    (tokens) => recordDiscardedUsage(rt, recorder, tokens, ref, budget),
  );
  await completeTexts(rt, recorder, recorder.parts.slice(stepStart), plan.hookContext);
  recordStepUsage(rt, recorder, streamed, ref, budget);
  return { streamed, stepStart };
}

/** A step that failed: an overflow is compacted and sent again (once); anything else ends the turn. */
async function stepFailed(plan: TurnPlan, turn: TurnState, error: unknown, stepStart: number): Promise<StepOutcome> {
  const recorder = turn.recorder;
  if (isContextOverflow(error)) {
    // The provider counted what our estimate did not: compact and send the step again.
    recorder.remove(recorder.parts.slice(stepStart).filter((p) => p.type !== "step-finish"));
    // What was rejected is at most this long: the summary's input starts below it.
    const rejected = estimateMessagesTokens(modelView([...turn.prior, current(turn)]));
    if (plan.autoCompact && !turn.justCompacted && (await relieve(plan, turn, rejected, true))) return "again";
    if (!recorder.message.error) fail(plan.rt, recorder, overflowError(error));
    return "stop";
  }
  fail(plan.rt, recorder, toMessageError(error));
  return "stop";
}

/** After a step that streamed: end on a bad finish, the last step or a spent budget; else run its tool calls. */
async function afterStep(
  plan: TurnPlan,
  turn: TurnState,
  streamed: StepStream,
  trees: StepTrees,
  before: StepTree,
  lastStep: boolean,
  stepStart: number,
): Promise<StepOutcome> {
  const { rt, budget } = plan;
  const recorder = turn.recorder;
  const stopError = finishError(streamed.finishReason);
  if (stopError) {
    cancelCalls(recorder, streamed.calls.map((c) => c.part), "The step ended before this call could run.");
    fail(rt, recorder, stopError);
    return "stop";
  }
  if (lastStep) return streamed.calls.length === 0 ? stopAt(await finalAnswer(plan, turn, streamed, stepStart, false)) : "stop";
  const spent = budget.reached();
  if (spent && streamed.calls.length > 0) {
    // Nothing more runs once a budget is spent; each call still gets a result for the model.
    cancelCalls(recorder, streamed.calls.map((c) => c.part), "Not run: the turn's budget was reached.");
    stopForBudget(rt, recorder, budget, spent);
    return "stop";
  }
  // A tool that may change files waits for the step's starting snapshot, so its changes are this step's.
  const outcome = await runCalls(plan, turn, streamed.calls, () => before.tree);
  await recordPatch(trees, recorder, before, streamed.calls.some((call) => !call.tool.readOnly));
  // The step's final states are stored before the next step starts.
  await plan.writer.flush();
  if (outcome.rejected) recorder.message.error ??= rejectedError();
  if (plan.signal.aborted || outcome.rejected) return "stop";
  if (streamed.calls.length === 0 && streamed.invalidCalls === 0) return finalAnswer(plan, turn, streamed, stepStart, true);
  return "next";
}

/** The last step a limit allows ends the turn even when messages were steered in (they get a turn of their own). */
function stopAt(outcome: StepOutcome): StepOutcome {
  return outcome === "answered" ? "stop" : outcome;
}

/** The step that answered: with an output schema, its text must validate (or be repaired in another step). */
async function finalAnswer(plan: TurnPlan, turn: TurnState, streamed: StepStream, stepStart: number, canRepair: boolean): Promise<StepOutcome> {
  if (!plan.output) return "answered";
  if (!canRepair) plan.output.repairsLeft = 0;
  const texts = turn.recorder.parts.slice(stepStart).filter((p): p is TextPart => p.type === "text" && !p.synthetic);
  const check = await checkOutput(plan.output, turn.recorder, texts, streamed.finishReason);
  if (check.kind === "repair") return plan.budget.reached() ? "stop" : "next";
  if (check.kind === "failed") {
    fail(plan.rt, turn.recorder, check.error);
    return "stop";
  }
  return "answered";
}

/** Runs the `text.complete` hooks over the text parts a step finished. */
export async function completeTexts(rt: AgentRuntime, recorder: TurnRecorder, parts: Part[], context: { sessionID: string; agent: string }): Promise<void> {
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
 * Records the files a step changed (by any means) as a `patch` part, and the tree at its end on the
 * step-finish part. Only a step that ran a tool that may change files looks at the tree again.
 */
export async function recordPatch(trees: StepTrees, recorder: TurnRecorder, before: StepTree, mayChangeFiles: boolean): Promise<void> {
  const changed = await trees.finish(before, recorder, mayChangeFiles);
  if (changed && changed.files.length > 0) recorder.add({ type: "patch", hash: changed.before, files: changed.files });
}
