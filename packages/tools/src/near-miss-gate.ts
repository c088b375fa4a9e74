import type { ToolContext } from "./tool.js";

/** What stands in a refusal's message for an excerpt the model may not read. */
export const WITHHELD_EXCERPT = "[excerpt left out: reading this file is denied or needs approval]";

/**
 * An edit refusal quotes the file's closest region ("near miss") so the model can correct its
 * search. That is reading the file: when `read` of it (`readPattern`, as the read tool asks) is
 * denied or would ask — or cannot be checked here — the excerpt is left out of the message and the
 * error's data, so an edit attempt never shows what `read` would not.
 */
export function gateNearMiss(error: unknown, ctx: Pick<ToolContext, "check">, readPattern: string): unknown {
  if (!(error instanceof Error)) return error;
  const nearMiss = (error as { nearMiss?: { text?: unknown } }).nearMiss;
  if (!nearMiss || typeof nearMiss.text !== "string") return error;
  const readable = ctx.check?.({ permission: "read", patterns: [readPattern] }) === "allow";
  if (readable) return error;
  if (nearMiss.text !== "") error.message = error.message.split(nearMiss.text).join(WITHHELD_EXCERPT);
  (error as { nearMiss?: unknown }).nearMiss = undefined;
  return error;
}
