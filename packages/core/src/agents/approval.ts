import type { StoredPermissionRequest } from "@lathe/message";

// The host's side of approvals. Declared here, under agents/, so that the permission gate can name
// them without importing options.ts (which imports agents/); options.ts re-exports them.

/** An approval request the agent puts to the host. */
export type PermissionRequest = StoredPermissionRequest;

/**
 * The host's answer to an approval request: allow this once; allow it and everything its `always`
 * patterns cover for the rest of the session; reject (the turn stops); or reject with feedback the
 * model sees as the tool's result (the turn goes on).
 */
export type PermissionReply = "once" | "always" | "reject" | { reject: string };

/**
 * Answers approval requests inline; `signal` fires when the run no longer needs the answer (aborted).
 * An async function, so that `async () => "once"` type-checks without a cast (a sync-or-async union
 * return type would widen the literal to `string`).
 */
export type ApproveFn = (request: PermissionRequest, context: { signal: AbortSignal }) => Promise<PermissionReply>;

/** An answer given to a request that no run of this agent waits for (see {@link HandOffReply}). */
export interface HandedOffReply {
  sessionID: string;
  request: PermissionRequest;
  reply: PermissionReply;
}

/**
 * Takes an answer to a request whose turn no run of this agent holds (a turn left waiting by another
 * process, or before a restart) and resumes that turn elsewhere — `@lathe/queue` enqueues the resume
 * as a job. Resolves true when it took the answer: the request then stays stored until the resumed
 * turn applies it. False leaves the answer here, for this agent's own `resume()`.
 */
export type HandOffReply = (answer: HandedOffReply) => Promise<boolean>;
