// A message a user sends to a session while it works (OpenCode and Claude Code let you type while
// the agent runs): steered into the running turn, or queued for a turn of its own. The reply waits
// until the message is stored — a crash after it cannot lose the message — and says what became of
// it, so a page can show it as waiting until the turn takes it.
import { z } from "zod";
import { InvalidInputError, type Agent } from "@lathe/core";
import type { TurnQueue } from "@lathe/queue";

/**
 * The body of `POST /chat/:id/messages`: the text only (the server keeps choosing the agent, its
 * system prompt and model — a steered message cannot bring its own anyway), and what to do while a
 * turn runs: `steer` (the default) joins the running turn, `queue` waits for a turn of its own.
 */
export const BusyMessage = z.strictObject({
  text: z.string().min(1).max(100_000),
  whileBusy: z.enum(["steer", "queue"]).default("steer"),
});
/** See {@link BusyMessage}. */
export type BusyMessage = z.infer<typeof BusyMessage>;

/** What became of a message sent with {@link sendBusyMessage}; the JSON reply of `POST /chat/:id/messages`. */
export interface BusyMessageReply {
  /**
   * `steer`: stored as a user message the running turn takes into its next request (its UI stream
   * then has a `data-steer` part with `messageID`); `queue`: stored on the session's queue
   * (`session.queue`, entry `queuedID`) for a turn of its own after the running one; `turn`: the
   * session was idle, so the message started a turn of its own now (follow it with GET /chat/:id/stream).
   */
  delivery: "steer" | "queue" | "turn";
  /** The stored user message (steer, turn); a queued prompt gets its message when its turn starts. */
  messageID?: string;
  /** The queue entry of a queued prompt; absent when its turn began before the reply was made. */
  queuedID?: string;
  /**
   * Worker mode, when this process runs no turn of the session: the message went to the job queue
   * (`enqueuePrompt` with `whileBusy`), and this is its job. A worker running the session's turn
   * steers it in (or runs it after, queued); with no turn running, a worker answers it with a turn
   * of its own. Its stored message is seen in the history and the session's stream.
   */
  jobID?: string;
}

/**
 * Sends a message to a session whether or not it runs a turn, and resolves once it is stored (a
 * job of the queue is stored too). Nothing waits for the answer: the turn belongs to the server.
 * With a `queue` (worker mode), a session this process runs no turn of is handed to the queue.
 */
export async function sendBusyMessage(agent: Agent, sessionID: string, { text, whileBusy }: BusyMessage, queue?: TurnQueue): Promise<BusyMessageReply> {
  if (text.trim() === "") throw new InvalidInputError("The message has no text.");
  // Worker mode: the job is the message until a worker stores it (steered in, or a turn of its own).
  if (queue && !agent.isBusy(sessionID)) return { delivery: whileBusy, jobID: await queue.enqueuePrompt(sessionID, text, { whileBusy }) };
  const busy = agent.isBusy(sessionID);
  const run = agent.prompt(sessionID, text, { whileBusy });
  const { messageID, queuedID } = await run.stored;
  if (busy && whileBusy === "queue") return { delivery: "queue", ...(queuedID ? { queuedID } : {}) };
  return { delivery: busy ? "steer" : "turn", ...(messageID ? { messageID } : {}) };
}
