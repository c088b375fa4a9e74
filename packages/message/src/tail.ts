import { estimateMessageTokens } from "./estimate-tokens.js";
import type { MessageWithParts } from "./message-with-parts.js";
import { nonNegativeCount } from "./option-error.js";
import { startsTurn } from "./turns.js";

/** Options of {@link selectTail}. */
export interface TailOptions {
  /** The most estimated tokens the verbatim tail may hold, e.g. {@link tailBudget} of the usable window. */
  budgetTokens: number;
  /** A message id: the tail ends just before it (exclusive). Default: the end of the view. */
  before?: string;
}

/**
 * The first message of the verbatim tail for a new compaction: the longest run of whole recent
 * turns, ending just before `before` (a message id, exclusive; default the end of the view) and
 * starting after the active summary (if any), whose estimated tokens stay within `budgetTokens`.
 * Undefined when not even the latest turn fits.
 *
 * A turn is a user message that is not a compaction message, with the assistant messages after it;
 * the tail always starts at one. Messages shown from an earlier tail (ids before the active summary)
 * are never kept again: the new summary covers them. Store the result as the new compaction part's
 * `tail`.
 *
 * @param view - the messages the model sees, from {@link modelView}.
 * @throws {@link InvalidCountError} when `budgetTokens` is negative or not a number.
 */
export function selectTail(view: MessageWithParts[], options: TailOptions): string | undefined {
  const budget = nonNegativeCount("budgetTokens", options.budgetTokens);
  const { before } = options;
  let after: string | undefined; // the id of the active summary: the tail starts after it
  for (const message of view) {
    if (message.info.role === "assistant" && message.info.summary === true && (after === undefined || message.info.id > after)) {
      after = message.info.id;
    }
  }

  let used = 0;
  let start: string | undefined;
  for (let i = view.length - 1; i >= 0; i--) {
    const message = view[i]!;
    const id = message.info.id;
    if (after !== undefined && id <= after) break;
    if (before !== undefined && id >= before) continue;
    used += estimateMessageTokens(message);
    if (used > budget) break;
    if (startsTurn(message)) start = id;
  }
  return start;
}

/**
 * The verbatim-tail budget for a usable window: 25% of it, clamped to [2,000, 8,000] tokens.
 *
 * @throws {@link InvalidCountError} when `usableTokens` is negative or not a number.
 */
export function tailBudget(usableTokens: number): number {
  const quarter = Math.floor(nonNegativeCount("usableTokens", usableTokens) / 4);
  return Math.min(8_000, Math.max(2_000, quarter));
}
