// A client answers approvals of the session it names — and of that session's own subagent
// sessions — never another session's: a chat cannot approve another chat's pending command.
import { NotFoundError, type Agent, type PermissionReply, type PermissionRequest, type PermissionsApi } from "@lathe/core";

/** An approval answer for a request of another session than the one the client named. */
export class ForeignApprovalError extends Error {
  override readonly name = "ForeignApprovalError";
  readonly requestID: string;
  /** The session the client named. */
  readonly sessionID: string;

  constructor(requestID: string, sessionID: string) {
    super(`Request ${requestID} does not belong to session ${sessionID} or its subagent sessions.`);
    this.requestID = requestID;
    this.sessionID = sessionID;
  }
}

/** The session and its subagent sessions (kind `task`), all levels down. */
export async function sessionFamily(agent: Agent, sessionID: string): Promise<string[]> {
  const family = [sessionID];
  for (let i = 0; i < family.length; i++) {
    let cursor: string | undefined;
    do {
      const page = await agent.sessions.list({ parentID: family[i]!, ...(cursor ? { cursor } : {}) });
      for (const child of page.sessions) if (child.kind === "task") family.push(child.id);
      cursor = page.cursor;
    } while (cursor);
  }
  return family;
}

/** The requests waiting in a session and its subagent sessions (stored ones loaded, so they survive restarts). */
export async function pendingInFamily(agent: Agent, sessionID: string): Promise<PermissionRequest[]> {
  const out: PermissionRequest[] = [];
  for (const id of await sessionFamily(agent, sessionID)) out.push(...(await agent.permissions.pending(id)));
  return out;
}

/**
 * Throws {@link ForeignApprovalError} when any of the ids is a request waiting in another session
 * than `sessionID` and its subagent sessions. Returns the ids that wait in the session's family.
 */
export async function ownRequests(agent: Agent, sessionID: string, requestIDs: readonly string[]): Promise<Set<string>> {
  const own = new Set((await pendingInFamily(agent, sessionID)).map((request) => request.id));
  const elsewhere = new Set((await agent.permissions.pending()).map((request) => request.id));
  for (const id of requestIDs) if (!own.has(id) && elsewhere.has(id)) throw new ForeignApprovalError(id, sessionID);
  return new Set(requestIDs.filter((id) => own.has(id)));
}

/**
 * The agent's permissions as one client may use them: it sees and answers the requests of
 * `sessionID` and its subagent sessions only. An answer to another session's waiting request
 * throws {@link ForeignApprovalError}; one to a request waiting nowhere, `NotFoundError` (stale).
 */
export function scopedPermissions(agent: Agent, sessionID: string): PermissionsApi {
  return {
    pending: () => pendingInFamily(agent, sessionID),
    reply: async (requestID: string, reply: PermissionReply) => {
      if (!(await ownRequests(agent, sessionID, [requestID])).has(requestID)) throw new NotFoundError(requestID);
      await agent.permissions.reply(requestID, reply);
    },
  };
}
