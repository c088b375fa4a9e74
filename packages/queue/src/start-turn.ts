import { ApprovalScopeError, FileUrlRefusedError, NotFoundError, type Agent, type Run } from "@lathe/core";
import type { Storage } from "@lathe/storage";
import type { PromptJob, TurnJob, TurnOutcome } from "./jobs.js";
import { promptMessageID } from "./prompt-ids.js";

/** A job's turn as started: a run (and, for a steered prompt taken as its own job, the message to steer into it), or what the job did already. */
export type StartedTurn = { run: Run; steer?: { input: PromptJob["input"]; messageID: string } } | { done: TurnOutcome };

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
): Promise<StartedTurn> {
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
  if (job.steer) {
    const steered = await startSteer(agent, storage, job, job.steer.messageID);
    if (steered) return steered;
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
  // A later prompt stored after this one means this turn was ended (repaired) already; a message
  // steered into the turn does not end it.
  if (messages.slice(at + 1).some((m) => m.info.role === "user" && !m.info.steered)) return { done: answered };
  const last = messages[messages.length - 1]!.info;
  const unfinished = last.role === "user" || last.time.completed === undefined;
  return unfinished ? { run: agent.resume(sessionID, job.options.agent ? { agent: job.options.agent } : {}) } : { done: answered };
}

/**
 * A steered prompt that no running turn took reaches a worker as a job of its own. Stored already
 * (a worker steered it into a turn, then stopped before it ended the job): the turn answering it is
 * resumed, or the job is done. Sent while the session's turn waits for approval: that turn is
 * resumed (it asks again) with the message steered into it, so the approval still works and the
 * answer to it goes on to the message. Otherwise undefined: it is answered like any queued prompt.
 */
async function startSteer(agent: Agent, storage: Storage, job: PromptJob, messageID: string): Promise<StartedTurn | undefined> {
  const { sessionID } = job;
  const messages = await storage.listMessages(sessionID);
  const last = messages.at(-1)?.info;
  const unfinished = last !== undefined && (last.role === "user" || last.time.completed === undefined);
  if (messages.some((m) => m.info.id === messageID)) return unfinished ? { run: agent.resume(sessionID) } : { done: { state: "steered", messageID } };
  if (!unfinished || last.role !== "assistant") return undefined;
  const waiting = (await agent.permissions.pending(sessionID)).some((request) => request.tool?.messageID === last.id);
  return waiting ? { run: agent.resume(sessionID), steer: { input: job.input, messageID } } : undefined;
}
