import { generateDiff } from "@lathe/patch";
import type { Interaction } from "./cassette.js";

/** A recorded request compared with one that was not recorded. */
export interface RequestDiff {
  /** Position of the recorded interaction in the cassette (0-based). */
  index: number;
  /** The recorded request's key. */
  key: string;
  /** A unified diff from the recorded request (`-`) to the new one (`+`), both pretty-printed. */
  diff: string;
  /** Lines that differ (added plus removed). */
  changedLines: number;
}

// Multi-line strings (the system prompt, file contents in tool results) print one line per line, so
// a diff points at the changed line rather than at one long JSON string.
function expandLines(value: unknown): unknown {
  if (typeof value === "string") return value.includes("\n") ? value.split("\n") : value;
  if (Array.isArray(value)) return value.map(expandLines);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, field]) => [key, expandLines(field)]));
  }
  return value;
}

/** A request pretty-printed for reading and diffing. */
export function printRequest(request: Record<string, unknown>): string {
  return `${JSON.stringify(expandLines(request), null, 2)}\n`;
}

/** The recorded interaction whose request is nearest to `request` (fewest changed lines), with the diff. */
export function closestRequest(request: Record<string, unknown>, interactions: readonly Interaction[]): RequestDiff | undefined {
  const printed = printRequest(request);
  const seen = new Set<string>();
  let best: RequestDiff | undefined;
  interactions.forEach((interaction, index) => {
    if (seen.has(interaction.key)) return;
    seen.add(interaction.key);
    const { diff, additions, removals } = generateDiff(printRequest(interaction.request), printed, "request.json");
    const changedLines = additions + removals;
    if (!best || changedLines < best.changedLines) {
      const body = diff.split("\n").slice(2).join("\n");
      best = { index, key: interaction.key, diff: `--- recorded request #${index + 1}\n+++ this request\n${body}`, changedLines };
    }
  });
  return best;
}
