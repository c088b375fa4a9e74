import { toolOutputTokens } from "./estimate-tokens.js";
import type { MessageWithParts } from "./message-with-parts.js";
import { nonNegativeCount } from "./option-error.js";
import type { ToolPart } from "./part.js";
import { startsTurn } from "./turns.js";

/** Options of {@link selectPrunable}. */
export interface PruneOptions {
  /** Newest tool output kept in full, in tokens; default 40_000. */
  protectTokens?: number;
  /** Prune only if at least this much is freed; default 20_000. */
  minimumTokens?: number;
  /** User turns at the end never pruned; default 2. */
  protectTurns?: number;
}

/** What {@link selectPrunable} chose: the tool parts to mark compacted and the tokens that frees. */
export interface PruneSelection {
  /** The tool parts whose outputs to mark compacted, oldest first. */
  parts: ToolPart[];
  /** The estimated tokens of their outputs (and attachments). */
  tokens: number;
}

/**
 * Completed tool outputs the model no longer needs in full: walking back from the newest, past the
 * last `protectTurns` user turns, outputs beyond the newest `protectTokens` tokens of tool output;
 * stops at the first output already compacted (everything older was pruned before). Empty when
 * fewer than `minimumTokens` would be freed. Pure: the caller marks `state.time.compacted`.
 *
 * The window of `protectTokens` counts from the newest completed output overall, so the outputs of
 * the protected turns use it up too; the output that crosses it is the first one selected. Nothing
 * in the last `protectTurns` user turns (a user message that is not a compaction message, with the
 * assistant messages after it) is ever selected, whatever its size. Failed and unfinished calls are
 * never selected: their results are short. Sizes are {@link estimateTokens} estimates.
 *
 * @param view - the messages the model sees, e.g. from {@link modelView}.
 * @throws {@link InvalidCountError} when an option is negative or not a number.
 */
export function selectPrunable(view: MessageWithParts[], options: PruneOptions = {}): PruneSelection {
  const protectTokens = nonNegativeCount("protectTokens", options.protectTokens ?? 40_000);
  const minimumTokens = nonNegativeCount("minimumTokens", options.minimumTokens ?? 20_000);
  const protectTurns = nonNegativeCount("protectTurns", options.protectTurns ?? 2);

  const selected: ToolPart[] = [];
  let seen = 0;
  let freed = 0;
  let turnsLeft = protectTurns;
  walk: for (let i = view.length - 1; i >= 0; i--) {
    const message = view[i]!;
    // A message of a protected turn is counted but never selected; the turn's user message comes
    // last in this backward walk, so the message is protected while turnsLeft > 0.
    const isProtected = turnsLeft > 0;
    if (startsTurn(message)) turnsLeft--;
    const parts = message.parts;
    for (let j = parts.length - 1; j >= 0; j--) {
      const part = parts[j]!;
      if (part.type !== "tool" || part.state.status !== "completed") continue;
      if (part.state.time.compacted !== undefined) break walk;
      const tokens = toolOutputTokens(part);
      seen += tokens;
      if (seen > protectTokens && !isProtected) {
        selected.push(part);
        freed += tokens;
      }
    }
  }
  if (freed < minimumTokens || selected.length === 0) return { parts: [], tokens: 0 };
  return { parts: selected.reverse(), tokens: freed };
}
