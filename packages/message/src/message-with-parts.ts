import { z } from "zod";
import { Message } from "./message.js";
import { Part } from "./part.js";

/** A message with its parts, in id order: the unit sessions are loaded in. */
export const MessageWithParts = z.object({
  info: Message,
  parts: z.array(Part),
});
/** A message with its parts. */
export type MessageWithParts = z.infer<typeof MessageWithParts>;
