import { SteerInbox } from "../loop/steering.js";
import { createId } from "@lathe/message";
import { MemoryStorage } from "@lathe/storage";
import { ObservedStorage } from "../session/observed-storage.js";
import { SessionHistories } from "../loop/session-history.js";
import { hostname } from "node:os";
import { builtinTools, createDiagnosticsTool, type Tool } from "@lathe/tools";
import { InvalidInputError } from "../errors.js";
import type { AgentEvent } from "../events.js";
import { AgentPermissions } from "../agents/agent-permissions.js";
import { AgentRegistry } from "../agents/registry.js";
import { modelRef } from "../context/model-info.js";
import { resolveModelFacts, type ModelFacts } from "../context/model-facts.js";
import type { AgentRuntime } from "../loop/runtime.js";
import type { AgentOptions } from "../options.js";
import { StepSnapshots } from "../session/file-history.js";
import { SessionTitles } from "../session/session-title.js";
import { SessionUpdater } from "../session/session-updater.js";
import type { SessionWriter } from "../session/session-writer.js";
import { Snapshots } from "../snapshot/index.js";
import { defaultDataDir } from "./option-checks.js";
import { AgentSkills } from "../agents/agent-skills.js";
import { CommandCatalog } from "../agents/command-catalog.js";
import { SkillCatalog } from "../agents/skill-catalog.js";
import { Tracing } from "../loop/tracing.js";

/** What the runtime needs from the agent that owns it. */
export interface RuntimeHost {
  emit(event: AgentEvent): void;
  /** The tools an agent is offered (computed once per agent; see `offeredTools`). */
  offeredTools(agent: string, tools: ReadonlyMap<string, Tool>): ReadonlyMap<string, Tool>;
  parentOf(sessionID: string): string | undefined;
}

/** The runtime of one agent instance, with the snapshot engine it made (none when snapshots are off). */
export interface BuiltRuntime {
  runtime: AgentRuntime;
  snapshotEngine: Snapshots | undefined;
  /** Per-session state tools keep on the agent. */
  states: Map<string, Map<string, unknown>>;
}

/** Builds what the loop shares with one agent instance from the host's options (already checked). */
export function buildRuntime(options: AgentOptions, host: RuntimeHost): BuiltRuntime {
  const tools = new Map<string, Tool>();
  for (const tool of options.tools ?? builtinTools()) {
    if (tools.has(tool.name)) throw new InvalidInputError(`Two tools are named "${tool.name}".`);
    tools.set(tool.name, tool);
  }
  if (options.lsp && !tools.has("diagnostics")) tools.set("diagnostics", createDiagnosticsTool());
  const hostStorage = options.storage ?? new MemoryStorage();
  const histories = new SessionHistories(() => hostStorage);
  // Everything the agent writes passes the histories it keeps across turns.
  const storage = new ObservedStorage(hostStorage, histories);
  const emit = (event: AgentEvent) => host.emit(event);
  const factsCache = new Map<string, ModelFacts>();
  const states = new Map<string, Map<string, unknown>>();
  const updater = new SessionUpdater(storage, emit);
  const writers = new Map<string, SessionWriter>();
  const agents = new AgentRegistry(options.agents);
  const permissions = new AgentPermissions({
    approve: options.approve,
    handOffReply: options.handOffReply,
    global: options.permission,
    agentLayer: agents.agentLayer,
    hostLayer: agents.hostLayer,
    storage,
    updater,
    emit,
    flushSession: {
      flush: async (sessionID) => writers.get(sessionID)?.flush(),
      isRunning: (sessionID) => writers.has(sessionID),
    },
  });
  const offered = new Map<string, ReadonlyMap<string, Tool>>();
  const cwd = options.cwd ?? process.cwd();
  const dataDir = options.dataDir ?? defaultDataDir();
  const snapshotEngine = options.snapshots === false ? undefined : new Snapshots({ workspace: cwd, dataDir });
  const defaultModel = { model: options.model, ref: modelRef(options.model) };
  const skillCatalog = new SkillCatalog({ cwd, configDir: options.configDir, skills: options.skills });
  const runtime: AgentRuntime = {
    options,
    agents,
    hooks: options.hooks,
    modelFor: (agent) => {
      const own = agents.get(agent).model;
      return own ? { model: own, ref: modelRef(own) } : defaultModel;
    },
    cwd,
    dataDir,
    snapshots: new StepSnapshots(snapshotEngine),
    storage,
    histories,
    tools,
    permissions,
    updater,
    writers,
    toolsFor: (agent) => {
      let forAgent = offered.get(agent);
      if (!forAgent) {
        forAgent = host.offeredTools(agent, tools);
        offered.set(agent, forAgent);
      }
      return forAgent;
    },
    // Names the process: a SessionBusyError elsewhere says who holds the session.
    leaseOwner: `agent_${createId("session").slice(4)}@${hostname()}:${process.pid}`,
    emit,
    sessionState: (sessionID) => {
      let state = states.get(sessionID);
      if (!state) states.set(sessionID, (state = new Map()));
      return state;
    },
    facts: (ref) => {
      const key = `${ref.providerID}/${ref.modelID}`;
      let facts = factsCache.get(key);
      if (!facts) factsCache.set(key, (facts = resolveModelFacts(ref, options.models, options.prices)));
      return facts;
    },
    budgets: new Map(),
    steering: new SteerInbox(),
    parentOf: (sessionID) => host.parentOf(sessionID),
    titles: undefined as unknown as SessionTitles,
    skills: new AgentSkills(skillCatalog, agents, (agent) => permissions.ruleset(agent)),
    commands: new CommandCatalog({ cwd, configDir: options.configDir, commands: options.commands }),
    tracing: new Tracing(options.telemetry),
  };
  // The titles service reads the runtime it belongs to.
  (runtime as { titles: SessionTitles }).titles = new SessionTitles(runtime);
  return { runtime, snapshotEngine, states };
}
