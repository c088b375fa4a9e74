import {
  agentRuleset,
  CorrectedError,
  evaluate,
  evaluateWithMode,
  fromConfig,
  PermissionService,
  RejectedError,
  type PermissionConfig,
  type PermissionMode,
  type PermissionRequest,
  type Reply,
  type Rule,
  type Ruleset,
} from "@lathe/permission";
import type { Session } from "@lathe/message";
import type { Storage } from "@lathe/storage";
import type { AgentEvent } from "../events.js";
import type { ApproveFn, HandOffReply } from "./approval.js";
import type { SessionUpdater } from "../session/session-updater.js";
import { modeForAgent, PLAN_RESTRICTION } from "./permission-mode.js";

/** What a tool call asks, as the loop hands it over. */
export interface GateAskInput {
  sessionID: string;
  /** The agent whose rules decide. */
  agent: string;
  permission: string;
  patterns: string[];
  /** Per pattern, other spellings that deny and ask rules also see (bash). */
  variants?: string[][];
  always: string[];
  metadata: Record<string, unknown>;
  tool?: { messageID: string; callID: string };
  opaque?: boolean;
  signal: AbortSignal;
  /** Told when a request this call made is answered (not when a rule decided), so the call can record it. */
  onAnswered?: (approval: ToolCallApproval) => void;
}

/** A user's answer to one approval request of a tool call, as the call records it (`metadata.approval`). */
export interface ToolCallApproval {
  /** The permission request's id. */
  id: string;
  approved: boolean;
  /** The feedback given with a rejection. */
  reason?: string;
}

/** Host rules: the OpenCode-style config object, or a list of rules. */
export type PermissionRules = PermissionConfig | Rule[];

/** The agent's view of permissions: asks and resolves, or throws the permission engine's errors. */
export interface PermissionGate {
  ask(input: GateAskInput): Promise<void>;
  /** Decides without asking: the rules, then the session's approvals (see `ToolContext.check`). */
  check?(input: { sessionID: string; agent: string; permission: string; patterns: string[] }): "allow" | "deny" | "ask";
}

/**
 * Lathe's permission engine bound to one agent: rules per agent name (defaults → agent → host
 * global → host per-agent), the ask/reply service, and persistence of what must outlive the
 * process — `always` approvals and unanswered requests live on the session record.
 */
export class AgentPermissions implements PermissionGate {
  readonly service: PermissionService;
  private readonly rulesets = new Map<string, Ruleset>();
  /**
   * Tool calls (per session) whose request was answered while no call waited for it — a request
   * restored after a restart and answered before `resume()`. The service keeps the answer for the
   * call; this remembers which calls `resume()` must run again.
   */
  private readonly answeredRestored = new Map<string, Set<string>>();
  /** Per waiting tool call, who records its answers (see {@link GateAskInput.onAnswered}). */
  private readonly answerListeners = new Map<string, (approval: ToolCallApproval) => void>();
  private readonly global: Ruleset;
  /** The mode in force per session (set when a turn starts and by `sessions.setMode`); absent means `default`. */
  private readonly modes = new Map<string, PermissionMode>();

  constructor(
    private readonly options: {
      approve?: ApproveFn | undefined;
      handOffReply?: HandOffReply | undefined;
      global?: PermissionRules | undefined;
      /** The built-in agents' own rules, where they replace the permission engine's defaults. */
      agentLayer?: ReadonlyMap<string, PermissionRules>;
      /** The host's rules per agent. */
      hostLayer?: ReadonlyMap<string, PermissionRules>;
      storage: Storage;
      updater: SessionUpdater;
      emit: (event: AgentEvent) => void;
      /** The running sessions' writers: flushed before the host is asked, so the waiting call is on disk. */
      flushSession?: { flush(sessionID: string): Promise<void>; isRunning(sessionID: string): boolean };
    },
  ) {
    this.global = toRules(options.global);
    const { updater, emit } = options;
    this.service = new PermissionService({
      ...(options.approve ? { approve: options.approve } : {}),
      onAsked: async (request) => {
        await options.flushSession?.flush(request.sessionID);
        await updater.update(request.sessionID, (session) => {
          const state = permissionState(session);
          state.pending = [...state.pending.filter((r) => r.id !== request.id), request];
        });
        emit({ type: "permission.asked", sessionID: request.sessionID, request });
      },
      onReplied: async ({ request, reply }) => {
        if (request.tool && !options.flushSession?.isRunning(request.sessionID) && (await options.handOffReply?.({ sessionID: request.sessionID, request, reply }))) {
          // Another process resumes the turn and applies the answer: the request stays stored for it.
          emit(repliedEvent(request, reply));
          return;
        }
        if (request.tool && !options.flushSession?.isRunning(request.sessionID)) {
          const calls = this.answeredRestored.get(request.sessionID) ?? new Set<string>();
          calls.add(request.tool.callID);
          this.answeredRestored.set(request.sessionID, calls);
        }
        await updater.update(request.sessionID, (session) => {
          const state = permissionState(session);
          state.pending = state.pending.filter((r) => r.id !== request.id);
        });
        emit(repliedEvent(request, reply));
        // After the event, so listeners hear "answered" before the call's record changes.
        if (request.tool) {
          const approved = reply === "once" || reply === "always";
          const reason = typeof reply === "object" ? reply.reject : undefined;
          this.answerListeners.get(callKey(request.sessionID, request.tool.callID))?.({ id: request.id, approved, ...(reason ? { reason } : {}) });
        }
      },
      onApprovedChanged: async (sessionID, rules) => {
        await updater.update(sessionID, (session) => {
          permissionState(session).approved = rules.map((r) => ({ ...r }));
        });
      },
    });
  }

  /** The merged ruleset an agent's calls are decided by. The same array is returned each time (the engine indexes it). */
  ruleset(agent: string): Ruleset {
    let rules = this.rulesets.get(agent);
    if (!rules) {
      const own = this.options.agentLayer?.get(agent);
      const host = this.options.hostLayer?.get(agent);
      rules = agentRuleset(agent, {
        global: this.global,
        ...(own ? { agent: toRules(own) } : {}),
        ...(host ? { perAgent: toRules(host) } : {}),
      });
      this.rulesets.set(agent, rules);
    }
    return rules;
  }

  ask(input: GateAskInput): Promise<void> {
    const { tool, onAnswered } = input;
    if (!tool || !onAnswered) return this.askService(input);
    const key = callKey(input.sessionID, tool.callID);
    this.answerListeners.set(key, onAnswered);
    return this.askService(input).finally(() => this.answerListeners.delete(key));
  }

  private askService(input: GateAskInput): Promise<void> {
    return this.service.ask({
      sessionID: input.sessionID,
      permission: input.permission,
      patterns: input.patterns,
      ...(input.variants ? { variants: input.variants } : {}),
      always: input.always,
      metadata: input.metadata,
      ...(input.tool ? { tool: input.tool } : {}),
      ...(input.opaque ? { opaque: true } : {}),
      ruleset: this.ruleset(input.agent),
      signal: input.signal,
      mode: this.modeFor(input.sessionID, input.agent),
      planRuleset: PLAN_RESTRICTION,
    });
  }

  /** Decides a request by the agent's rules, the session's mode and its approvals, asking no one. */
  check(input: { sessionID: string; agent: string; permission: string; patterns: string[] }): "allow" | "deny" | "ask" {
    const rules = this.ruleset(input.agent);
    let outcome: "allow" | "ask" = "allow";
    for (const pattern of input.patterns) {
      const action = evaluateWithMode(this.modeFor(input.sessionID, input.agent), input.permission, pattern, rules, PLAN_RESTRICTION).action;
      if (action === "deny") return "deny";
      if (action === "ask" && evaluate(input.permission, pattern, this.service.approved(input.sessionID)).action !== "allow") outcome = "ask";
    }
    return outcome;
  }

  /** Puts a session's asks under a permission mode from now on (a running turn's next asks included). */
  setMode(sessionID: string, mode: PermissionMode): void {
    this.modes.set(sessionID, mode);
  }

  /** The permission mode a session's asks are decided under now. */
  modeOf(sessionID: string): PermissionMode {
    return this.modes.get(sessionID) ?? "default";
  }

  /**
   * The mode one agent's asks in a session are decided under: the session's, except that the plan
   * agent always plans (see {@link modeForAgent}).
   *
   * A call is decided in this order: the rules (defaults, the agent's, the host's global and
   * per-agent rules; the last match wins), then the mode on top (`acceptEdits` and `bypass` may
   * turn an ask into an allow; `plan` takes the stricter of that and {@link PLAN_RESTRICTION}), and
   * a deny of the rules stays a deny in every mode.
   */
  modeFor(sessionID: string, agent: string): PermissionMode {
    return modeForAgent(this.modeOf(sessionID), agent);
  }

  /**
   * The tool calls of a session that wait for approval or were answered while no call waited, and
   * forgets the answered ones (the resumed turn runs them now).
   */
  takeResumableCalls(session: Session): Set<string> {
    const calls = new Set((session.permission?.pending ?? []).flatMap((r) => (r.tool ? [r.tool.callID] : [])));
    for (const callID of this.answeredRestored.get(session.id) ?? []) calls.add(callID);
    this.answeredRestored.delete(session.id);
    return calls;
  }

  /** Loads a session's stored permission state into the service (after a restart, or before a run). */
  restore(session: Session): void {
    const state = session.permission;
    this.service.restore(session.id, { approved: state?.approved ?? [], pending: state?.pending ?? [] });
  }

  /**
   * Requests waiting for an answer. With a session id, that session's stored requests are loaded
   * first, so requests made before a restart are listed (and can then be answered).
   */
  async pending(sessionID?: string): Promise<PermissionRequest[]> {
    if (sessionID !== undefined && this.service.pending(sessionID).length === 0) {
      const session = await this.options.storage.getSession(sessionID);
      if (session?.permission?.pending.length) this.restore(session);
    }
    return this.service.pending(sessionID);
  }

  /** Answers a request; see {@link PermissionService.reply}. */
  reply(requestID: string, reply: Reply): Promise<void> {
    return this.service.reply(requestID, reply);
  }
}

const callKey = (sessionID: string, callID: string) => `${sessionID}\u0000${callID}`;

function toRules(rules: PermissionRules | undefined): Ruleset {
  if (rules === undefined) return [];
  return Array.isArray(rules) ? rules : fromConfig(rules);
}

function permissionState(session: Session): NonNullable<Session["permission"]> {
  session.permission ??= { approved: [], pending: [] };
  return session.permission;
}

/** True when the error means the user refused and the turn must stop (not feedback, not an abort). */
export function isStopRejection(error: unknown): boolean {
  return error instanceof RejectedError && error.reason !== "aborted";
}

/** The feedback a user gave with a rejection, which the model reads as the tool's result. */
export function feedbackOf(error: unknown): string | undefined {
  return error instanceof CorrectedError ? error.message : undefined;
}

function repliedEvent(request: PermissionRequest, reply: Reply): AgentEvent {
  return {
    type: "permission.replied",
    sessionID: request.sessionID,
    requestID: request.id,
    reply: typeof reply === "object" ? "reject" : reply,
    ...(typeof reply === "object" ? { feedback: reply.reject } : {}),
  };
}
