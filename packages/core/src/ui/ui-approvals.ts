import { NotFoundError } from "@lathe/permission";
import type { UIMessage } from "ai";
import type { Agent } from "../agent.js";
import { InvalidInputError, type ApprovalScopeError } from "../errors.js";

/** A client's answer to one approval request (`addToolApprovalResponse`'s arguments). */
export interface UIApprovalResponse {
  /** The `approvalId` of the `tool-approval-request` — the permission request's id. */
  id: string;
  approved: boolean;
  /** With a rejection: feedback the model reads (the call fails with it and the turn goes on). */
  reason?: string;
}

/** What {@link replyToUIApprovals} did. */
export interface UIApprovalOutcome {
  /** Requests answered now. */
  replied: string[];
  /** Requests no longer waiting (answered before, or unknown), left alone. */
  stale: string[];
}

/**
 * Answers approval requests from a UI client of session `sessionID`: the approval responses in its
 * messages (tool parts in state `approval-responded`, as `useChat`'s `addToolApprovalResponse`
 * leaves them) or a list of responses. An approval replies `once`; a rejection replies `reject` —
 * or, with a reason, rejects with that feedback. Requests already answered (by this client before,
 * or by another) are skipped, so the same messages can be sent again safely.
 *
 * The client is not trusted: only requests of `sessionID` and of its subagent sessions are
 * answered (`agent.permissions.replyFor`). A response naming a waiting request of any other session
 * is not answered: the call rejects with {@link ApprovalScopeError} there (the responses before it
 * in the list were answered; none after it is).
 *
 * @example
 * ```ts
 * import type { UIMessage } from "ai";
 * import { createAgent, replyToUIApprovals } from "@lathe/core";
 * declare const agent: ReturnType<typeof createAgent>;
 * declare const sessionID: string; // the session the client's route names
 * declare const messages: UIMessage[]; // the body useChat posted
 * const { replied } = await replyToUIApprovals(agent, sessionID, messages);
 * ```
 */
export async function replyToUIApprovals(
  agent: Pick<Agent, "permissions">,
  sessionID: string,
  input: readonly UIMessage[] | readonly UIApprovalResponse[],
): Promise<UIApprovalOutcome> {
  if (typeof sessionID !== "string" || sessionID === "") throw new InvalidInputError("replyToUIApprovals needs the id of the session the client named: replyToUIApprovals(agent, sessionID, messages).");
  const responses = input.flatMap((item): UIApprovalResponse[] => ("parts" in item ? responsesIn(item) : [item]));
  const outcome: UIApprovalOutcome = { replied: [], stale: [] };
  for (const response of responses) {
    const reply = response.approved ? "once" : response.reason ? { reject: response.reason } : "reject";
    try {
      await agent.permissions.replyFor(sessionID, response.id, reply);
      outcome.replied.push(response.id);
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
      outcome.stale.push(response.id);
    }
  }
  return outcome;
}

function responsesIn(message: UIMessage): UIApprovalResponse[] {
  if (message.role !== "assistant") return [];
  return message.parts.flatMap((part): UIApprovalResponse[] => {
    if (!("state" in part) || part.state !== "approval-responded" || !("approval" in part)) return [];
    const { id, approved, reason } = part.approval;
    return [{ id, approved, ...(reason ? { reason } : {}) }];
  });
}
