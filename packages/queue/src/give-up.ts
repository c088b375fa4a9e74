import { NothingToResumeError, type Agent } from "@lathe/core";
import type { EventForwarder } from "./event-forwarder.js";
import type { FencedStorage } from "./fenced-storage.js";
import type { TurnJob, TurnOutcome } from "./jobs.js";
import type { TurnQueue } from "./queue.js";
import { noteFailure, promptMessageID } from "./prompt-ids.js";

/**
 * Ends a poison turn — one whose workers died on every attempt — instead of running it again: the
 * stored turn is finished as aborted with the reason (running calls interrupted, its usage counted
 * into the session), the reason is stored on the session (`metadata["lathe.queue"].failed`) and
 * sent to subscribers as a `session.error`, and the job goes to the dead letters.
 */
export async function giveUp(context: {
  queue: TurnQueue;
  agent: Agent;
  storage: FencedStorage;
  forwarder: EventForwarder;
  job: TurnJob;
  jobID: string;
}): Promise<TurnOutcome> {
  const { queue, agent, storage, forwarder, job, jobID } = context;
  const { sessionID } = job;
  const reason = `The turn was given up after ${queue.maxAttempts} attempts: the worker running it stopped each time (killed, crashed or cut off).`;
  const messageID = job.kind === "prompt" ? await promptMessageID(storage, sessionID, jobID, false) : undefined;
  const stored = job.kind === "resume" || (messageID !== undefined && (await storage.getMessage(sessionID, messageID)) !== undefined);
  if (stored) {
    try {
      // Nothing runs on an aborted signal: the resume only settles what is stored and closes the message.
      const run = agent.resume(sessionID, { signal: AbortSignal.abort(reason) });
      for await (const event of run) forwarder.push(sessionID, event);
      await run;
    } catch (error) {
      if (!(error instanceof NothingToResumeError)) throw error;
    }
  }
  await noteFailure(storage, sessionID, { jobID, reason, at: Date.now() });
  forwarder.push(sessionID, { type: "session.error", sessionID, error: { name: "TurnFailedError", message: reason } });
  await forwarder.flush(sessionID);
  await queue.bury(job, reason);
  return { state: "failed", reason };
}
