import type { Rule } from "./rule.js";

/** A rule denies the call; the model is told which one. */
export class DeniedError extends Error {
  override readonly name = "DeniedError";
  /** The permission that was asked. */
  readonly permission: string;
  /** The asked pattern the rule denied. */
  readonly pattern: string;
  /** The deny rule that decided. */
  readonly rule: Rule;

  constructor(permission: string, pattern: string, rule: Rule) {
    super(
      `Permission "${permission}" is denied for ${JSON.stringify(pattern)} by the rule ` +
        `{ permission: ${JSON.stringify(rule.permission)}, pattern: ${JSON.stringify(rule.pattern)}, action: "deny" }. ` +
        `Do not retry this call; find another way or ask the user.`,
    );
    this.permission = permission;
    this.pattern = pattern;
    this.rule = rule;
  }
}

/** Why a request was rejected without feedback. */
export type RejectReason = "user" | "aborted" | "session";

/** The host refused a request; the base of {@link RejectedError} and {@link CorrectedError}. */
export abstract class RefusedError extends Error {
  /** The refused request. */
  readonly requestID: string;
  /** The permission it asked. */
  readonly permission: string;

  constructor(message: string, requestID: string, permission: string) {
    super(message);
    this.requestID = requestID;
    this.permission = permission;
  }
}

/** The host rejected the request (or it was aborted, or swept along with another rejection): the turn stops. */
export class RejectedError extends RefusedError {
  override readonly name = "RejectedError";
  /**
   * `user`: rejected by the host; `aborted`: the caller's signal fired while waiting; `session`:
   * another request of the same session was rejected.
   */
  readonly reason: RejectReason;

  constructor(requestID: string, permission: string, reason: RejectReason = "user") {
    const message =
      reason === "aborted"
        ? "The permission request was aborted."
        : "The user rejected permission to use this specific tool call.";
    super(message, requestID, permission);
    this.reason = reason;
  }
}

/** The host rejected the request with feedback: the model receives the feedback and goes on. */
export class CorrectedError extends RefusedError {
  override readonly name = "CorrectedError";
  /** What the user said instead. */
  readonly feedback: string;

  constructor(requestID: string, permission: string, feedback: string) {
    super(
      `The user rejected permission to use this specific tool call with the following feedback: ${feedback}`,
      requestID,
      permission,
    );
    this.feedback = feedback;
  }
}

/** No pending request has this id (never asked, already answered, or from another service). */
export class NotFoundError extends Error {
  override readonly name = "NotFoundError";
  /** The unknown id. */
  readonly requestID: string;

  constructor(requestID: string) {
    super(`No pending permission request with id ${JSON.stringify(requestID)}.`);
    this.requestID = requestID;
  }
}
