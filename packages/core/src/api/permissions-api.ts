import type { PermissionRequest, Reply } from "@lathe/permission";
import type { AgentPermissions } from "../agents/agent-permissions.js";

/** Approvals that wait for the host: list them, answer them — from another request, minutes later, or after a restart. */
export interface PermissionsApi {
  /**
   * Requests waiting for an answer, oldest first. With a session id, that session's stored requests
   * are loaded first, so requests made before a restart are listed and can be answered.
   */
  pending(sessionID?: string): Promise<PermissionRequest[]>;
  /**
   * Answers a request: `once`, `always` (for the rest of the session, also settling other waiting
   * requests it covers), `reject` (the turn stops), or `{ reject: feedback }` (the model reads the
   * feedback and goes on). Throws the permission engine's `NotFoundError` for an unknown id.
   */
  reply(requestID: string, reply: Reply): Promise<void>;
  /**
   * Answers a request on behalf of a client of one session — what a server does with an answer
   * that came over the wire: only a request of session `sessionID` or of one of its subagent
   * sessions is answered. A request of any other session is refused with `ApprovalScopeError`
   * (nothing is answered); an unknown id throws `NotFoundError`. {@link PermissionsApi.reply} stays
   * unscoped: it is the host's own.
   */
  replyFor(sessionID: string, requestID: string, reply: Reply): Promise<void>;
}

/** The host's view of the agent's approvals. */
export function createPermissionsApi(permissions: AgentPermissions): PermissionsApi {
  return {
    pending: (sessionID) => permissions.pending(sessionID),
    reply: (requestID, reply) => permissions.reply(requestID, reply),
    replyFor: (sessionID, requestID, reply) => permissions.replyFor(sessionID, requestID, reply),
  };
}
