// What the session list shows of each session: working, waiting for a person, or idle.
import type { Agent } from "@lathe/core";
import { pendingInFamily } from "./approval-scope.ts";
import { hasUnfinishedTurn } from "./resume-turns.ts";

/** A stored session. */
type Session = NonNullable<Awaited<ReturnType<Agent["sessions"]["get"]>>>;

/** `waiting`: an approval waits for a person; `working`: a turn runs; `idle`: neither. */
export type SessionActivity = "idle" | "working" | "waiting";

/**
 * A session's activity. Here, a running turn is one this process runs; in worker mode (`remote`),
 * where workers run the turns, it is one whose answer is not complete yet.
 */
export async function sessionActivity(agent: Agent, sessionID: string, remote: boolean): Promise<SessionActivity> {
  if ((await pendingInFamily(agent, sessionID)).length > 0) return "waiting";
  if (agent.isBusy(sessionID) || (remote && (await hasUnfinishedTurn(agent, sessionID)))) return "working";
  return "idle";
}

/** Every top-level session, newest first, each with its activity; `limit` of them when given. */
export async function listSessions(agent: Agent, remote: boolean, limit?: number): Promise<Array<Session & { status: SessionActivity }>> {
  const all: Session[] = [];
  let cursor: string | undefined;
  do {
    const page = await agent.sessions.list({ rootsOnly: true, ...(cursor ? { cursor } : {}) });
    all.push(...page.sessions);
    cursor = page.cursor;
  } while (cursor);
  const newest = all.reverse().slice(0, limit);
  return Promise.all(newest.map(async (session) => ({ ...session, status: await sessionActivity(agent, session.id, remote) })));
}
