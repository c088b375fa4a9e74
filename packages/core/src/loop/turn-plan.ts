import { asSchema, tool as aiTool, type ToolSet, type LanguageModel } from "ai";
import type { ModelMessageCache, ModelRef, Session } from "@lathe/message";
import type { Tool } from "@lathe/tools";
import { BudgetTracker } from "../context/budget.js";
import { type CompactionContext } from "./compaction.js";
import type { PromptOptions } from "../options.js";
import { inputLimit, usableContext } from "../context/overflow.js";
import type { AgentRuntime } from "./runtime.js";
import { SessionWriter } from "../session/session-writer.js";
import { buildSystemSections } from "../agents/system-prompt.js";
import { resolveCache } from "../context/cache-options.js";
import { cachePlan, type CachePlan } from "../context/cache-plan.js";
import { runToolCalls, type ToolCall, type ToolRunOutcome } from "./tool-runner.js";
import type { AgentDefinition } from "../agents/registry.js";
import { DEFAULT_AGENT, sessionBudget, type TurnState, current, sessionDataDir } from "./turn-common.js";
import { relieveOverflow } from "./overflow-relief.js";
import { turnInstructions } from "./turn-mode.js";
import { modelRef } from "../context/model-info.js";
import type { StructuredOutput } from "./structured-output.js";
import type { TurnTrace } from "./tracing.js";
import type { PromptPrefix } from "./prompt-prefix.js";

// What a turn fixes before its first step (TurnPlan), and the two things its steps do with it:
// run tool calls and make room when the context overflows.

/** What every step of a turn shares, fixed when the turn starts. */
export interface TurnPlan {
  rt: AgentRuntime;
  writer: SessionWriter;
  session: Session;
  signal: AbortSignal;
  agentName: string;
  definition: AgentDefinition;
  model: LanguageModel;
  ref: ModelRef;
  hookContext: { sessionID: string; agent: string };
  /** The system prompt read once per turn; each step gets its own copy for the chat.system hooks. */
  baseSystem: string[];
  /** How many leading sections of `baseSystem` are its stable part (see `buildSystemSections`). */
  stableSections: number;
  /** What caching adds to the turn's requests (breakpoints, a cache key, or nothing). */
  cache: CachePlan;
  maxSteps: number | undefined;
  offered: ReadonlyMap<string, Tool>;
  toolSet: ToolSet;
  budget: BudgetTracker;
  /** The context a request may fill (undefined when the model's window is unknown). */
  usable: number | undefined;
  /** The most input one request may hold: the model's input cap, else its window (undefined when unknown). */
  contextWindow: number | undefined;
  autoCompact: boolean;
  compaction: CompactionContext;
  /** The model messages of steps already sent, so each request converts only the newest. */
  messageCache: ModelMessageCache;
  /** The provider-level prompt of the turn's last request, so each request converts only what is new. */
  promptPrefix: PromptPrefix;
  /** The turn's spans (no-ops when telemetry is off). */
  trace: TurnTrace;
  /** The prompt's structured output, set by `drive` once its schema is resolved. */
  output?: StructuredOutput | undefined;
}

/**
 * Works out, once, what the turn's steps need: agent, model (the prompt's, else the agent's), system
 * prompt (with the agent's skills and, in plan mode, the plan agent's instructions), tools (with the
 * `skill` tool when the agent has skills), budget, context.
 */
export function planTurn(rt: AgentRuntime, writer: SessionWriter, session: Session, options: PromptOptions, signal: AbortSignal, trace: TurnTrace): TurnPlan {
  const agentName = options.agent ?? DEFAULT_AGENT;
  const definition = rt.agents.get(agentName);
  const { model, ref } = options.model ? { model: options.model, ref: modelRef(options.model) } : rt.modelFor(agentName);
  const skills = rt.skills.forTurn(agentName, rt.toolsFor(agentName));
  // Read from the workspace once per turn (instruction files, listing); each step gets its own copy
  // for the chat.system hooks to change.
  const sections = buildSystemSections({
    model: ref,
    cwd: rt.cwd,
    agentPrompt: definition.prompt,
    instructions: instructionList(rt),
    instructionFiles: rt.options.instructionFiles,
    system: turnInstructions(rt, session.id, options.system),
    skills: skills.section,
  });
  const cache = cachePlan(model, resolveCache(rt.options.cache, definition.cache, options.cache), session.id, rt.facts(ref).cacheMinTokens);
  const offered = skills.tools;
  const budget = sessionBudget(rt, session, options.limits);
  rt.budgets.set(session.id, budget);
  return {
    rt,
    writer,
    session,
    signal,
    agentName,
    definition,
    model,
    ref,
    hookContext: { sessionID: session.id, agent: agentName },
    baseSystem: [...sections.stable, ...sections.volatile],
    stableSections: sections.stable.length,
    cache,
    maxSteps: options.maxSteps ?? definition.steps ?? rt.options.maxSteps,
    offered,
    toolSet: aiToolSet(offered),
    budget,
    usable: usableContext(rt.facts(ref), rt.options.maxOutputTokens),
    contextWindow: inputLimit(rt.facts(ref)),
    autoCompact: rt.options.compaction?.auto !== false,
    compaction: { rt, writer, sessionID: session.id, signal, budget },
    // Kept with the session's loaded history: the first request of a turn converts only what is new.
    ...rt.histories.conversions(session.id),
    trace,
  };
}

/** Runs tool calls of the message the turn is writing, with the agent's rules, hooks and session state. */
export function runCalls(plan: TurnPlan, turn: TurnState, calls: ToolCall[], beforeChange?: () => Promise<unknown>): Promise<ToolRunOutcome> {
  const { rt, session, signal } = plan;
  return runToolCalls(calls, {
    ...(beforeChange ? { beforeChange } : {}),
    recorder: turn.recorder,
    gate: plan.trace.gate(rt.permissions),
    trace: plan.trace,
    agent: plan.agentName,
    cwd: rt.cwd,
    signal,
    maxParallel: rt.options.maxParallelTools ?? 8,
    emit: (event) => rt.emit(event),
    sessionState: rt.sessionState(session.id),
    hooks: rt.hooks,
    dataDir: sessionDataDir(rt, session.id),
    diagnostics: rt.options.lsp,
    ...(rt.options.shellEnv ? { shellEnv: rt.options.shellEnv } : {}),
    ...(rt.options.files ? { files: rt.options.files } : {}),
    todos: {
      get: async () => (await rt.storage.getSession(session.id))?.todos ?? [],
      set: async (todos) => {
        await rt.updater.update(session.id, (current) => {
          current.todos = todos;
        });
      },
    },
  });
}

/** Compacts mid-turn; false when the turn must end (the failure is recorded). */
export function relieve(plan: TurnPlan, turn: TurnState, estimate: number, rejected = false): Promise<boolean> {
  // Pruning edits tool outputs in place and a summary rewrites the history: convert anew after.
  plan.messageCache.clear();
  return plan.trace.compaction(() =>
    relieveOverflow(plan.rt, plan.writer, turn, plan.compaction, { agent: plan.agentName, ref: plan.ref, usable: plan.usable, estimate, rejected }),
  );
}

export function instructionList(rt: AgentRuntime): string[] {
  const given = rt.options.instructions;
  return given === undefined ? [] : Array.isArray(given) ? given : [given];
}

/**
 * The AI SDK's view of each tool, made once per tool: the SDK wraps a bare zod schema anew on every
 * request and converts it to JSON Schema each time, while a wrapped one keeps its conversion.
 */
const sdkTools = new WeakMap<Tool, ToolSet[string]>();

export function aiToolSet(tools: ReadonlyMap<string, Tool>): ToolSet {
  const set: ToolSet = {};
  // In a fixed order (by name), whatever order the tools were registered in: the tool definitions
  // open the prompt, and a provider's cache holds only while they stay byte for byte the same.
  for (const [name, tool] of [...tools].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    let sdkTool = sdkTools.get(tool);
    if (!sdkTool || sdkTool.description !== tool.description) {
      // No `execute`: the AI SDK only validates the calls; Lathe runs them with permissions and context.
      sdkTool = aiTool({ description: tool.description, inputSchema: asSchema(tool.parameters as never) });
      sdkTools.set(tool, sdkTool);
    }
    set[name] = sdkTool;
  }
  return set;
}
