// A run belongs to the server: a turn a previous process left unfinished — killed mid-stream, or
// waiting for an approval that was answered after the restart — is taken up again with
// `agent.resume`, so its tools run once and its answer is stored in the same message.
import { NothingToResumeError, SessionBusyError, type Agent } from "@lathe/core";
import { pendingInFamily } from "./approval-scope.ts";

/** Whether the session's last turn is unfinished: a prompt with no answer, or an answer not completed. */
export async function hasUnfinishedTurn(agent: Agent, sessionID: string): Promise<boolean> {
  const last = (await agent.sessions.messages(sessionID)).at(-1)?.info;
  if (!last) return false;
  return last.role === "user" || last.time.completed === undefined;
}

/**
 * Resumes the session's unfinished turn here unless something runs it already. Calls still waiting
 * for an answer ask again and wait (attached to their stored requests). Returns whether a run started.
 */
export async function resumeIfUnfinished(agent: Agent, sessionID: string): Promise<boolean> {
  if (agent.isBusy(sessionID) || !(await hasUnfinishedTurn(agent, sessionID))) return false;
  try {
    const run = agent.resume(sessionID);
    // The run is the server's: its events go to the session's log, whoever listens.
    run.catch((error: unknown) => {
      if (!(error instanceof NothingToResumeError) && !(error instanceof SessionBusyError)) console.error(`Resuming ${sessionID} failed:`, error);
    });
    return true;
  } catch (error) {
    if (error instanceof SessionBusyError) return false;
    throw error;
  }
}

/**
 * At start: every top-level session whose last turn a previous process left unfinished, and whose
 * approvals are all answered (or that was killed mid-stream), is resumed. Turns still waiting for a
 * person stay waiting — their stored requests are loaded, so answering one resumes the turn.
 * Returns the sessions resumed.
 */
export async function resumeInterruptedTurns(agent: Agent): Promise<string[]> {
  const resumed: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await agent.sessions.list({ rootsOnly: true, ...(cursor ? { cursor } : {}) });
    for (const session of page.sessions) {
      if (!(await hasUnfinishedTurn(agent, session.id))) continue;
      if ((await pendingInFamily(agent, session.id)).length > 0) continue;
      if (await resumeIfUnfinished(agent, session.id)) resumed.push(session.id);
    }
    cursor = page.cursor;
  } while (cursor);
  return resumed;
}
