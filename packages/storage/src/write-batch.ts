import { Message, Part, Session } from "@lathe/message";
import { z } from "zod";
import { InvalidBatchError } from "./errors.js";

/** Names one message of one session. */
export const MessageKey = z.object({ sessionID: z.string(), messageID: z.string() });
/** Names one message of one session. */
export type MessageKey = z.infer<typeof MessageKey>;

/** Names one part of one message. */
export const PartKey = z.object({ sessionID: z.string(), messageID: z.string(), partID: z.string() });
/** Names one part of one message. */
export type PartKey = z.infer<typeof PartKey>;

/**
 * Writes applied together: an adapter stores all of a batch or none of it (one transaction, where it
 * has them). Upserts apply before removals, so a batch that writes and removes the same record
 * leaves it removed.
 */
export const WriteBatch = z.object({
  /** Sessions to insert or replace. */
  sessions: z.array(Session).optional(),
  /** Messages to insert or replace. */
  messages: z.array(Message).optional(),
  /** Parts to insert or replace (each names its session and message). */
  parts: z.array(Part).optional(),
  /** Messages to remove, with their parts. */
  removeMessages: z.array(MessageKey).optional(),
  /** Parts to remove. */
  removeParts: z.array(PartKey).optional(),
});
/** Writes applied together, all or nothing. */
export type WriteBatch = z.infer<typeof WriteBatch>;

/** A {@link WriteBatch} after {@link validateBatch}: every list present, every record checked. */
export type ValidBatch = { [K in keyof WriteBatch]-?: NonNullable<WriteBatch[K]> };

/**
 * Checks every record of a batch against the message model's schemas and returns the parsed records
 * (fresh objects, so the caller's later mutations cannot reach what is stored). Adapters call it
 * first in `write`, so a bad record rejects the whole batch before anything is stored.
 *
 * @throws {@link InvalidBatchError} when any record does not match its schema.
 */
export function validateBatch(batch: WriteBatch): ValidBatch {
  const parsed = WriteBatch.safeParse(batch);
  if (!parsed.success) {
    throw new InvalidBatchError(
      parsed.error.issues.map((issue) => ({ path: issue.path.map(String).join("."), message: issue.message })),
    );
  }
  const { sessions = [], messages = [], parts = [], removeMessages = [], removeParts = [] } = parsed.data;
  return { sessions, messages, parts, removeMessages, removeParts };
}

/** True when the batch writes or removes nothing. */
export function isEmptyBatch(batch: ValidBatch): boolean {
  return (
    batch.sessions.length + batch.messages.length + batch.parts.length + batch.removeMessages.length + batch.removeParts.length ===
    0
  );
}
