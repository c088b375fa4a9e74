import { z } from "zod";
import { Limits } from "@lathe/message";

// What travels in a job: plain JSON, checked when a worker takes it (a job may come from an older
// or a foreign producer).

const PromptPart = z.union([
  z.object({ type: z.literal("text"), text: z.string(), synthetic: z.boolean().optional() }),
  z.object({ type: z.literal("file"), url: z.string(), mime: z.string(), filename: z.string().optional() }),
]);

/** The options of a queued prompt: those of `agent.prompt` that can travel as JSON. */
export const QueuedPromptOptions = z.object({
  agent: z.string().optional(),
  system: z.string().optional(),
  maxSteps: z.number().int().positive().optional(),
  limits: Limits.optional(),
});
/** The options of a queued prompt (no `signal`: abort with `queue.abort(sessionID)`). */
export type QueuedPromptOptions = z.infer<typeof QueuedPromptOptions>;

/**
 * A prompt to answer. With `steer`, it was sent to join the session's running turn
 * (`whileBusy: "steer"`): the worker running that turn steers it in under `steer.messageID` (made
 * when it was sent); when no turn takes it, it is answered by a turn of its own, in its place.
 */
export const PromptJob = z.object({
  kind: z.literal("prompt"),
  sessionID: z.string().min(1),
  input: z.union([z.string(), z.array(PromptPart)]),
  options: QueuedPromptOptions.default({}),
  steer: z.object({ messageID: z.string().regex(/^msg_[0-9A-Za-z]{1,64}$/) }).optional(),
});

/** A turn to resume once its approvals are answered (answers given in another process travel with it). */
export const ResumeJob = z.object({
  kind: z.literal("resume"),
  sessionID: z.string().min(1),
  answers: z.array(z.object({ requestID: z.string(), reply: z.union([z.enum(["once", "always", "reject"]), z.object({ reject: z.string() })]) })).default([]),
});

/** A prompt job's data; see {@link PromptJob}. */
export type PromptJob = z.infer<typeof PromptJob>;

export const TurnJob = z.discriminatedUnion("kind", [PromptJob, ResumeJob]);
/** The data of a job of the turn queue. */
export type TurnJob = z.infer<typeof TurnJob>;

/** What a finished job stores as its output. */
export type TurnOutcome =
  | { state: "answered"; messageID?: string; worker?: string }
  | { state: "waiting"; requestID: string; worker?: string }
  /** A steered prompt the running turn took: stored as `messageID`, answered by that turn. */
  | { state: "steered"; messageID: string; worker?: string }
  | { state: "failed"; reason: string }
  /** Refused before anything ran: an answer to another session's request, a prompt the agent does not accept. */
  | { state: "refused"; reason: string }
  | { state: "no-session" }
  | { state: "nothing-to-resume" };
