import type { Lease } from "@lathe/storage";
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
