import type { Lease } from "@lathe/storage";
import type { MessageError } from "@lathe/message";
import { budgetMessage, type BudgetHit } from "./context/budget.js";

/**
 * Thrown when a session already runs a prompt (here, or in another process holding its lease). When
 * another holds the lease, `holder` names it: owner, host and process id, and until when it holds.
 */
export class SessionBusyError extends Error {
  override readonly name = "SessionBusyError";
  constructor(
    readonly sessionID: string,
    readonly holder?: Lease,
  ) {
    super(`Session ${sessionID} is busy: it already runs a prompt${holder ? ` (${describeHolder(holder)})` : ""}. Wait for it to finish or abort it.`);
  }
}

function describeHolder(lease: Lease): string {
  const where = lease.pid !== undefined ? `, process ${lease.pid}${lease.host ? ` on ${lease.host}` : ""}` : "";
  return `lease held by ${lease.owner}${where} until ${new Date(lease.expiresAt).toISOString()}`;
}

/** Thrown when a session id names no stored session. */
export class SessionNotFoundError extends Error {
  override readonly name = "SessionNotFoundError";
  constructor(readonly sessionID: string) {
    super(`Session ${sessionID} was not found.`);
  }
}

/** Thrown for options or input that cannot work, before anything runs. */
export class InvalidInputError extends Error {
  override readonly name = "InvalidInputError";
}

/**
 * Thrown by `agent.prompt` (synchronously, before anything is stored) for a file part that names a
 * local file by `file:` URL when the host has not opted in with `createAgent({ fileUrls: true })`:
 * a client must not make the agent read whatever path it names (`/etc/shadow`, another tenant's folder).
 */
export class FileUrlRefusedError extends Error {
  override readonly name = "FileUrlRefusedError";
  constructor(readonly url: string) {
    super(`The prompt attaches a local file by URL (${url.length > 200 ? `${url.slice(0, 200)}…` : url}); file: URLs are refused unless the host allows them (createAgent({ fileUrls: true })). Send the file's content as a data: URL instead.`);
  }
}

/**
 * Thrown when a client answers an approval request that is not its own: the request belongs to a
 * session other than the one the client named, and not to one of that session's subagent sessions.
 * Nothing is answered. (`agent.permissions.reply`, the host's own, is not scoped.)
 */
export class ApprovalScopeError extends Error {
  override readonly name = "ApprovalScopeError";
  constructor(
    readonly requestID: string,
    /** The session the client named. */
    readonly sessionID: string,
  ) {
    super(`The permission request ${JSON.stringify(requestID)} does not belong to session ${sessionID} or its subagent sessions: it cannot be answered from there.`);
  }
}

/**
 * Thrown by {@link Agent.sessions}' `compact` when a budget of the session (its own limits or the
 * agent's) is already reached: a summary would spend more, so nothing runs and nothing is written.
 */
export class BudgetExceededError extends Error {
  override readonly name = "BudgetExceededError";
  constructor(readonly hit: BudgetHit) {
    super(budgetMessage(hit, "nothing more runs in this session"));
  }
}

/** Thrown by agent methods after {@link Agent.close}. */
export class AgentClosedError extends Error {
  override readonly name = "AgentClosedError";
  constructor() {
    super("The agent is closed.");
  }
}

/** Thrown by {@link Agent.resume} when the session has no turn left waiting to be resumed. */
export class NothingToResumeError extends Error {
  override readonly name = "NothingToResumeError";
  constructor(readonly sessionID: string) {
    super(`Session ${sessionID} has no interrupted turn to resume: its last assistant message is finished.`);
  }
}

/**
 * The error on `info.error` of a run given an `output` schema whose answers never matched it, after
 * the repairs it allowed: `data` has the last answer's text, why it did not match, and how many
 * answers were tried. Stored with the message like every message error.
 */
export interface OutputValidationError extends MessageError {
  name: "OutputValidationError";
  data: { text: string; reason: string; attempts: number };
}

/** Whether a message error is an {@link OutputValidationError}. */
export function isOutputValidationError(error: MessageError | undefined): error is OutputValidationError {
  return error?.name === "OutputValidationError";
}

/**
 * A steered or queued prompt was aborted before a turn answered it: its message was taken out of
 * the session (or its queue) and nothing will answer it.
 */
export class PromptDroppedError extends Error {
  override readonly name = "PromptDroppedError";
  constructor(
    readonly sessionID: string,
    reason?: unknown,
  ) {
    super(`The prompt waiting in session ${sessionID} was dropped before it was answered${reason !== undefined ? ` (${String(reason)})` : ""}.`);
  }
}
