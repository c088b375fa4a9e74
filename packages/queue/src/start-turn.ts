import { ApprovalScopeError, FileUrlRefusedError, NotFoundError, type Agent, type Run } from "@lathe/core";
import type { Storage } from "@lathe/storage";
import type { TurnJob, TurnOutcome } from "./jobs.js";
import { promptMessageID } from "./prompt-ids.js";

/**
 * Starts the turn a job asks for, as the session is stored now — a job may be taken again after
 * the worker running it died, so it must not answer a prompt twice:
 * - a prompt not stored yet is prompted (under the job's message id);
 * - a prompt stored whose turn is unfinished is resumed (the steps already done are kept);
 * - a prompt whose turn is over is not run again (its outcome is returned instead).
 * The run is wrapped: a `Run` is thenable, and an async function would wait for it.
 * A resume job first applies the answers given in another process, then resumes. Its answers are
 * a client's as far as the queue knows: each is accepted only for a request of the job's session or
 * of its subagent sessions; one naming another session's request ends the job as `refused`
 * (nothing more is answered, the turn is not resumed). A prompt the agent refuses before storing
 * anything (a `file:` URL the host did not allow) ends as `refused` too, rather than being retried.
 */
export async function startTurn(
  agent: Agent,
  storage: Storage,
  job: TurnJob,
  jobID: string,
  replaying: Set<string>,
): Promise<{ run: Run } | { done: TurnOutcome }> {
  const { sessionID } = job;
  if (job.kind === "resume") {
    // Loads the stored requests, so the answers given elsewhere find them.
    await agent.permissions.pending(sessionID);
    for (const { requestID, reply } of job.answers) {
      replaying.add(requestID);
      try {
        await agent.permissions.replyFor(sessionID, requestID, reply);
      } catch (error) {
        if (error instanceof ApprovalScopeError) return { done: { state: "refused", reason: error.message } };
        if (!(error instanceof NotFoundError)) throw error; // answered already, or the turn moved on
      } finally {
        replaying.delete(requestID);
      }
    }
    return { run: agent.resume(sessionID) };
  }
  const messageID = await promptMessageID(storage, sessionID, jobID, true);
  if (!messageID) return { done: { state: "no-session" } };
  const answered: TurnOutcome = { state: "answered", messageID };
  const messages = await storage.listMessages(sessionID);
  const at = messages.findIndex((m) => m.info.id === messageID);
  if (at < 0) {
    try {
      return { run: agent.prompt(sessionID, job.input, { ...job.options, messageID }) };
    } catch (error) {
      if (error instanceof FileUrlRefusedError) return { done: { state: "refused", reason: error.message } };
      throw error;
    }
  }
  // A later prompt stored after this one means this turn was ended (repaired) already.
  if (messages.slice(at + 1).some((m) => m.info.role === "user")) return { done: answered };
  const last = messages[messages.length - 1]!.info;
  const unfinished = last.role === "user" || last.time.completed === undefined;
  return unfinished ? { run: agent.resume(sessionID, job.options.agent ? { agent: job.options.agent } : {}) } : { done: answered };
}
