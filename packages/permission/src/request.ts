import { z } from "zod";
import { REQUEST_ID_PREFIX } from "./request-id.js";

/** The tool call a request belongs to. */
export const ToolCallRef = z.object({ messageID: z.string(), callID: z.string() });
/** The tool call a request belongs to. */
export type ToolCallRef = z.infer<typeof ToolCallRef>;

/**
 * A question to the host: may `permission` be used for `patterns`? Stored with the session while
 * pending, so it survives a restart. `always` lists the patterns an `always` reply approves for the
 * rest of the session. `opaque` requests (commands that could not be analysed safely) are asked
 * whatever allow rules say and are never approved by another request's `always`.
 */
export const PermissionRequest = z.object({
  id: z.string().startsWith(REQUEST_ID_PREFIX),
  sessionID: z.string().min(1),
  permission: z.string().min(1),
  patterns: z.array(z.string()),
  always: z.array(z.string()),
  metadata: z.record(z.string(), z.unknown()),
  tool: ToolCallRef.optional(),
  opaque: z.boolean().optional(),
  time: z.object({ created: z.number() }),
});
/** A question to the host; see {@link PermissionRequest}. */
export type PermissionRequest = z.infer<typeof PermissionRequest>;

/**
 * The host's answer: `once` (this call only), `always` (this call, and the request's `always`
 * patterns for the rest of the session), `reject` (stop the turn; the session's other pending
 * requests are rejected too) or `{ reject: feedback }` (this call fails with the feedback, which the
 * model reads; the turn goes on).
 */
export const Reply = z.union([z.enum(["once", "always", "reject"]), z.object({ reject: z.string() })]);
/** The host's answer; see {@link Reply}. */
export type Reply = z.infer<typeof Reply>;
