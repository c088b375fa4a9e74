import { createId } from "@lathe/message";
import type { Storage } from "@lathe/storage";

/** The key under which the queue keeps its notes in `session.metadata`. */
export const QUEUE_METADATA_KEY = "lathe.queue";

interface QueueNotes {
  /** The job whose prompt the session answers now, and the id its user message is stored under. */
  turn?: { jobID: string; messageID: string };
  /** Why the last turn given up failed (see `maxAttempts`). */
  failed?: { jobID: string; reason: string; at: number };
}

/** The queue's notes on a session. */
export function queueNotes(metadata: Record<string, unknown> | undefined): QueueNotes {
  const notes = metadata?.[QUEUE_METADATA_KEY];
  return notes && typeof notes === "object" ? (notes as QueueNotes) : {};
}

/**
 * The id a job's prompt is (or will be) stored under. Made when the job first runs — not when it
 * is enqueued: ids order a session's messages, so the id must be newer than the answers to the
 * prompts before it — and noted on the session, so a worker that takes the job again after the
 * first one died finds the prompt it stored and does not store it twice. Undefined when the session
 * does not exist, or when `create` is false and the job never ran.
 */
export async function promptMessageID(storage: Storage, sessionID: string, jobID: string, create: boolean): Promise<string | undefined> {
  const session = await storage.getSession(sessionID);
  if (!session) return undefined;
  const notes = queueNotes(session.metadata);
  if (notes.turn?.jobID === jobID) return notes.turn.messageID;
  if (!create) return undefined;
  const messageID = createId("message");
  session.metadata = { ...session.metadata, [QUEUE_METADATA_KEY]: { ...notes, turn: { jobID, messageID } } };
  await storage.write({ sessions: [session] });
  return messageID;
}

/** Notes on the session why its turn was given up. */
export async function noteFailure(storage: Storage, sessionID: string, failed: NonNullable<QueueNotes["failed"]>): Promise<void> {
  const session = await storage.getSession(sessionID);
  if (!session) return;
  session.metadata = { ...session.metadata, [QUEUE_METADATA_KEY]: { ...queueNotes(session.metadata), failed } };
  await storage.write({ sessions: [session] });
}
