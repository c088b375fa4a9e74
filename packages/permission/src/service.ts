import { z } from "zod";
import { CorrectedError, DeniedError, NotFoundError, RejectedError } from "./errors.js";
import { evaluate } from "./evaluate.js";
import { matchWildcard } from "./wildcard.js";
import { evaluateWithMode, PermissionMode } from "./mode.js";
import { PermissionRequest, Reply, ToolCallRef } from "./request.js";
import { newRequestId } from "./request-id.js";
import { Rule, type Ruleset } from "./rule.js";

/** What a tool call asks; see {@link PermissionService.ask}. */
export interface AskInput {
  /** The session the call belongs to; approvals and rejections are per session. */
  sessionID: string;
  /** The permission asked (`bash`, `edit`, `external_directory`…). */
  permission: string;
  /** What the call touches: one pattern per command, path… Each is evaluated on its own. */
  patterns: readonly string[];
  /**
   * Per pattern (same order), other spellings of it that deny and ask rules are checked against as
   * well, but allow rules and approvals are not (see {@link evaluateSpellings} and `bashAsks`).
   */
  variants?: readonly (readonly string[])[];
  /** What an `always` reply approves for the rest of the session (e.g. `git commit *`). Default: none. */
  always?: readonly string[];
  /** Anything the host should see with the request (the command, a diff…). */
  metadata?: Record<string, unknown>;
  /** The tool call asking; lets a call resumed after a restart find its stored request. */
  tool?: ToolCallRef;
  /** The agent's merged ruleset (see `agentRuleset`). */
  ruleset: readonly Rule[];
  /**
   * Ask even where allow rules (and the session's approvals) match; deny rules still apply. Set for
   * commands that could not be analysed safely (see `bashAsks`).
   */
  opaque?: boolean;
  /** Aborting while the request waits rejects it with a {@link RejectedError} (`reason: "aborted"`). */
  signal?: AbortSignal;
  /**
   * The permission mode on top of the rules (see {@link PermissionMode}); default `default`. Under
   * `bypass` an opaque request is asked only when a `deny` or `ask` rule exists for the permission
   * (deny rules still apply).
   */
  mode?: PermissionMode;
  /** The plan agent's merged ruleset, which `plan` mode holds calls to. */
  planRuleset?: readonly Rule[];
}

/** The inline way to answer: called once per new request; the request is settled by its reply. */
export type ApproveCallback = (request: PermissionRequest, options: { signal: AbortSignal }) => Reply | Promise<Reply>;

/** A request left the pending set, with the reply that settled it. */
export interface RepliedEvent {
  /** The request. */
  request: PermissionRequest;
  /**
   * The reply: the host's; `always` for requests another `always` reply covered; `reject` for
   * requests rejected along with another, or aborted; `once` for a restored request that a resumed
   * call found no longer needs asking.
   */
  reply: Reply;
}

/** Options of {@link PermissionService}. Hooks may return promises; the service awaits them. */
export interface PermissionServiceOptions {
  /** Answers requests inline. Without it, requests wait for {@link PermissionService.reply}. */
  approve?: ApproveCallback;
  /** A new request is pending (persist it, emit `permission.asked`). Awaited before `approve` runs. */
  onAsked?: (request: PermissionRequest) => void | Promise<void>;
  /** A request is no longer pending (persist that, emit `permission.replied`). Awaited before the asker continues. */
  onReplied?: (event: RepliedEvent) => void | Promise<void>;
  /** A session's approved rules changed; `rules` is the whole new set (persist it with the session). */
  onApprovedChanged?: (sessionID: string, rules: Ruleset) => void | Promise<void>;
  /** The clock for request ids and times. Default: `Date.now`. */
  now?: () => number;
}

/** A session's permission state as persisted: its approved rules and its pending requests. */
export interface PermissionSessionState {
  /** The rules `always` replies added. */
  approved?: readonly Rule[];
  /** Requests that were waiting when the state was saved. */
  pending?: readonly PermissionRequest[];
}

const AskData = z.object({
  sessionID: z.string().min(1),
  permission: z.string().min(1),
  patterns: z.array(z.string()),
  variants: z.array(z.array(z.string())).default([]),
  always: z.array(z.string()).default([]),
  metadata: z.record(z.string(), z.unknown()).default({}),
  tool: ToolCallRef.optional(),
  // Not parsed rule by rule: the caller's array is evaluated as is, so its index is reused across asks.
  ruleset: z.custom<readonly Rule[]>((value) => Array.isArray(value), "ruleset must be an array of rules"),
  opaque: z.boolean().default(false),
  mode: PermissionMode.default("default"),
  planRuleset: z.custom<readonly Rule[]>((value) => Array.isArray(value), "planRuleset must be an array of rules").optional(),
});

interface Entry {
  request: PermissionRequest;
  /** The asking call; absent for a restored request until a resumed call attaches. */
  waiter?: { resolve(): void; reject(error: Error): void };
  /** Fires when the request is settled, so an `approve` callback can stop waiting for its user. */
  controller: AbortController;
  detach?: () => void;
  /** Asked because a rule for another spelling said so: another request's `always` does not settle it. */
  bySpelling?: boolean;
}

/** An outcome: undefined to go on, or the error the asker gets. */
type Outcome = Error | undefined;

/**
 * Decides tool calls against rules and carries the undecided ones to the host. One per agent; no
 * global state. Hosts answer either inline (the `approve` option) or later through {@link reply},
 * also after a restart: persist requests through the hooks, {@link restore} them in the new process,
 * and the resumed tool call's `ask` attaches to its stored request (same session, `tool.callID` and
 * permission) — whether the reply came before or after the resume.
 */
export class PermissionService {
  readonly #options: PermissionServiceOptions;
  readonly #pending = new Map<string, Entry>();
  readonly #approved = new Map<string, Ruleset>();
  /** Outcomes of replies to restored requests no call was waiting for yet, by {@link callKey}. */
  readonly #answers = new Map<string, Outcome>();

  constructor(options: PermissionServiceOptions = {}) {
    this.#options = options;
  }

  /**
   * Resolves when the call may go ahead. Each pattern is evaluated against `ruleset`: any `deny` →
   * {@link DeniedError}; the patterns that `ask` (and that the session's approvals do not allow)
   * become one request to the host; none → resolves at once. The request's reply decides:
   * `once`/`always` resolve, `reject` → {@link RejectedError}, `{ reject: feedback }` →
   * {@link CorrectedError}. A ZodError is thrown for malformed input.
   */
  async ask(input: AskInput): Promise<void> {
    const data = AskData.parse(input);
    const { sessionID, permission } = data;
    const approved = this.approved(sessionID);
    const asking: string[] = [];
    let askedBySpelling = false;
    // Under bypass an opaque call is asked still when any deny or ask rule exists for the permission:
    // what it runs could be what those rules are about.
    const restricted = data.opaque === true && data.mode === "bypass" && hasRestriction(permission, input.ruleset);
    for (const [i, pattern] of data.patterns.entries()) {
      const decision = evaluateWithMode(data.mode, permission, pattern, input.ruleset, input.planRuleset, data.variants[i] ?? []);
      if (decision.action === "deny") throw new DeniedError(permission, decision.pattern, decision.rule!);
      if (asking.includes(pattern)) continue;
      // An ask a respelling's rule made is not lifted by approvals, which were given for the pattern.
      const bySpelling = decision.action === "ask" && decision.pattern !== pattern;
      askedBySpelling ||= bySpelling;
      if ((data.opaque && (data.mode !== "bypass" || restricted)) || bySpelling) asking.push(pattern);
      else if (decision.action === "ask" && evaluate(permission, pattern, approved).action !== "allow") asking.push(pattern);
    }

    const key = data.tool ? callKey(sessionID, data.tool.callID, permission) : undefined;
    if (key && this.#answers.has(key)) {
      // The host answered this call's restored request before the call was resumed.
      const outcome = this.#answers.get(key);
      this.#answers.delete(key);
      if (outcome) throw outcome;
      return;
    }
    const restored = key ? this.#findRestored(key) : undefined;
    if (asking.length === 0) {
      if (restored && this.#claim(restored)) await this.#options.onReplied?.({ request: restored.request, reply: "once" });
      return;
    }
    if (input.signal?.aborted) throw new RejectedError(restored?.request.id ?? "", permission, "aborted");

    if (restored) {
      const waiting = this.#wait(restored, input.signal);
      if (this.#options.approve) void this.#runApprove(restored);
      return waiting;
    }

    const now = (this.#options.now ?? Date.now)();
    const request = freezeRequest({
      id: newRequestId(now),
      sessionID,
      permission,
      patterns: asking,
      always: data.always,
      metadata: data.metadata,
      ...(data.tool ? { tool: data.tool } : {}),
      ...(data.opaque ? { opaque: true } : {}),
      time: { created: now },
    });
    const entry: Entry = { request, controller: new AbortController(), ...(askedBySpelling ? { bySpelling: true } : {}) };
    this.#pending.set(request.id, entry);
    const waiting = this.#wait(entry, input.signal);
    try {
      await this.#options.onAsked?.(request);
    } catch (error) {
      if (this.#claim(entry)) this.#settle(entry, toError(error));
      return waiting;
    }
    if (this.#options.approve && this.#pending.get(request.id) === entry) void this.#runApprove(entry);
    return waiting;
  }

  /**
   * Answers a pending request (see {@link Reply}). `always` adds allow rules for the request's
   * `always` patterns to the session's approvals and settles the session's other pending requests
   * those now cover; a plain `reject` rejects the session's other pending requests too. Resolves once
   * the hooks ran; throws {@link NotFoundError} for an unknown id, or the first hook error.
   */
  async reply(requestID: string, reply: Reply): Promise<void> {
    const parsed = Reply.parse(reply);
    const entry = this.#pending.get(requestID);
    if (!entry) throw new NotFoundError(requestID);
    const { errors, main } = await this.#apply(entry, parsed);
    this.#settle(entry, main);
    if (errors.length > 0) throw errors[0];
  }

  /** The pending requests, oldest first; of one session when `sessionID` is given. */
  pending(sessionID?: string): PermissionRequest[] {
    const out: PermissionRequest[] = [];
    for (const { request } of this.#pending.values()) {
      if (sessionID === undefined || request.sessionID === sessionID) out.push(request);
    }
    return out.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  /** The session's approved rules (what `always` replies added), oldest first. */
  approved(sessionID: string): Ruleset {
    return this.#approved.get(sessionID) ?? EMPTY;
  }

  /**
   * Loads a session's persisted state after a restart: `approved` replaces the session's approvals;
   * `pending` requests join the pending set (ids already pending are skipped) with no caller waiting
   * until a resumed call asks again. Hooks are not called. Throws a ZodError for malformed state or a
   * request of another session.
   */
  restore(sessionID: string, state: PermissionSessionState): void {
    const parsed = z
      .object({
        approved: z.array(Rule).optional(),
        pending: z.array(PermissionRequest.refine((r) => r.sessionID === sessionID, "request of another session")).optional(),
      })
      .parse(state);
    if (parsed.approved) this.#approved.set(sessionID, freezeRules(parsed.approved));
    for (const request of parsed.pending ?? []) {
      if (this.#pending.has(request.id)) continue;
      this.#pending.set(request.id, { request: freezeRequest(request), controller: new AbortController() });
    }
  }

  /**
   * Drops everything about a session (e.g. when it is deleted): approvals, stored answers and pending
   * requests; calls still waiting get a {@link RejectedError}. Hooks are not called.
   */
  forget(sessionID: string): void {
    this.#approved.delete(sessionID);
    for (const key of this.#answers.keys()) if (key.startsWith(`${sessionID}\u0000`)) this.#answers.delete(key);
    for (const entry of [...this.#pending.values()]) {
      if (entry.request.sessionID !== sessionID || !this.#claim(entry)) continue;
      if (entry.waiter) this.#settle(entry, new RejectedError(entry.request.id, entry.request.permission, "session"));
      else this.#detach(entry);
    }
  }

  /** Claims the entry's reply and its consequences; returns the main outcome and any hook errors. */
  async #apply(entry: Entry, reply: Reply): Promise<{ main: Outcome; errors: unknown[] }> {
    const { request } = entry;
    this.#claim(entry);
    const settled: Settlement[] = [];
    let main: Outcome;
    let approvedChanged = false;
    if (reply === "once") main = undefined;
    else if (reply === "always") {
      main = undefined;
      approvedChanged = this.#approve(request);
      const approved = this.approved(request.sessionID);
      for (const other of this.#sessionEntries(request.sessionID)) {
        if (other.request.opaque || other.bySpelling) continue;
        const covered = other.request.patterns.every(
          (p) => evaluate(other.request.permission, p, approved).action === "allow",
        );
        if (covered && this.#claim(other)) settled.push({ entry: other, reply: "always", outcome: undefined });
      }
    } else if (reply === "reject") {
      main = new RejectedError(request.id, request.permission, "user");
      for (const other of this.#sessionEntries(request.sessionID)) {
        if (!this.#claim(other)) continue;
        const outcome = new RejectedError(other.request.id, other.request.permission, "session");
        settled.push({ entry: other, reply: "reject", outcome });
      }
    } else main = new CorrectedError(request.id, request.permission, reply.reject);

    const errors: unknown[] = [];
    const run = async (hook: () => void | Promise<void>) => {
      try {
        await hook();
      } catch (error) {
        errors.push(error);
      }
    };
    const { onReplied, onApprovedChanged } = this.#options;
    if (onReplied) await run(() => onReplied({ request, reply }));
    if (approvedChanged && onApprovedChanged) {
      await run(() => onApprovedChanged(request.sessionID, this.approved(request.sessionID)));
    }
    errors.push(...(await this.#finish(settled)));
    return { main, errors };
  }

  /** Reports already claimed requests as replied, then settles them; returns hook errors. */
  async #finish(settled: Settlement[]): Promise<unknown[]> {
    const errors: unknown[] = [];
    for (const s of settled) {
      this.#claim(s.entry);
      try {
        await this.#options.onReplied?.({ request: s.entry.request, reply: s.reply });
      } catch (error) {
        errors.push(error);
      }
      this.#settle(s.entry, s.outcome);
    }
    return errors;
  }

  async #runApprove(entry: Entry): Promise<void> {
    let reply: Reply;
    try {
      reply = Reply.parse(await this.#options.approve!(entry.request, { signal: entry.controller.signal }));
    } catch (error) {
      // The callback failed (or answered nonsense): the request is settled as rejected, and the
      // hooks hear so — otherwise a stored request would stay pending with nobody to answer it.
      if (!this.#claim(entry)) return;
      const failure = toError(error);
      try {
        await this.#options.onReplied?.({ request: entry.request, reply: "reject" });
      } catch (hookError) {
        failure.cause ??= hookError;
      }
      this.#settle(entry, failure);
      return;
    }
    if (this.#pending.get(entry.request.id) !== entry) return; // answered some other way meanwhile
    const { main, errors } = await this.#apply(entry, reply);
    this.#settle(entry, errors.length > 0 ? toError(errors[0]) : main);
  }

  #wait(entry: Entry, signal: AbortSignal | undefined): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      entry.waiter = { resolve, reject };
      if (!signal) return;
      const onAbort = () => void this.#abort(entry);
      signal.addEventListener("abort", onAbort, { once: true });
      entry.detach = () => signal.removeEventListener("abort", onAbort);
    });
  }

  async #abort(entry: Entry): Promise<void> {
    if (!this.#claim(entry)) return;
    const error = new RejectedError(entry.request.id, entry.request.permission, "aborted");
    try {
      await this.#options.onReplied?.({ request: entry.request, reply: "reject" });
    } catch (hookError) {
      error.cause = hookError;
    }
    this.#settle(entry, error);
  }

  /** Removes the entry from the pending set; false when something else already did. */
  #claim(entry: Entry): boolean {
    if (this.#pending.get(entry.request.id) !== entry) return false;
    this.#pending.delete(entry.request.id);
    entry.controller.abort();
    return true;
  }

  #settle(entry: Entry, outcome: Outcome): void {
    this.#detach(entry);
    const { waiter, request } = entry;
    entry.waiter = undefined;
    if (waiter) {
      if (outcome) waiter.reject(outcome);
      else waiter.resolve();
    } else if (request.tool) {
      this.#answers.set(callKey(request.sessionID, request.tool.callID, request.permission), outcome);
    }
  }

  #detach(entry: Entry): void {
    entry.detach?.();
    entry.detach = undefined;
  }

  /** Adds allow rules for the request's `always` patterns; true when the set changed. */
  #approve(request: PermissionRequest): boolean {
    const current = this.approved(request.sessionID);
    const added = request.always
      .filter((pattern, i, all) => all.indexOf(pattern) === i)
      .filter((pattern) => !current.some((r) => r.permission === request.permission && r.pattern === pattern))
      .map((pattern): Rule => ({ permission: request.permission, pattern, action: "allow" }));
    if (added.length === 0) return false;
    this.#approved.set(request.sessionID, freezeRules([...current, ...added]));
    return true;
  }

  #findRestored(key: string): Entry | undefined {
    for (const entry of this.#pending.values()) {
      const { request } = entry;
      if (!entry.waiter && request.tool && callKey(request.sessionID, request.tool.callID, request.permission) === key) {
        return entry;
      }
    }
    return undefined;
  }

  #sessionEntries(sessionID: string): Entry[] {
    return [...this.#pending.values()].filter((e) => e.request.sessionID === sessionID);
  }
}

interface Settlement {
  entry: Entry;
  reply: Reply;
  outcome: Outcome;
}

const EMPTY: Ruleset = Object.freeze([]) as unknown as Ruleset;

function callKey(sessionID: string, callID: string, permission: string): string {
  return `${sessionID}\u0000${callID}\u0000${permission}`;
}

function freezeRules(rules: readonly Rule[]): Ruleset {
  return Object.freeze(rules.map((r) => Object.freeze({ permission: r.permission, pattern: r.pattern, action: r.action }))) as Ruleset;
}

function freezeRequest(request: PermissionRequest): PermissionRequest {
  Object.freeze(request.patterns);
  Object.freeze(request.always);
  Object.freeze(request.time);
  if (request.tool) Object.freeze(request.tool);
  return Object.freeze(request);
}

function toError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

/** Whether any `deny` or `ask` rule of `ruleset` is for `permission`. */
function hasRestriction(permission: string, ruleset: readonly Rule[]): boolean {
  return ruleset.some((rule) => rule.action !== "allow" && matchWildcard(rule.permission, permission));
}
