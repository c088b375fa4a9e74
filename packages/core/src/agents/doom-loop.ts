import type { Part } from "@lathe/message";

/** How many identical calls in a row count as a loop. */
export const DOOM_LOOP_THRESHOLD = 3;

/**
 * True when the call about to run is the third in a row of the same tool with the same input: the
 * model is probably stuck, and the host is asked (`doom_loop` permission) before it goes on.
 * `previous` holds the turn's parts; only those before `end` (the call's own part) are looked at.
 */
export function isDoomLoop(previous: readonly Part[], tool: string, input: unknown, end = previous.length): boolean {
  const key = stableJson(input);
  let same = 0;
  for (let i = end - 1; i >= 0 && same < DOOM_LOOP_THRESHOLD - 1; i--) {
    const part = previous[i]!;
    if (part.type !== "tool") continue;
    if (part.tool !== tool || stableJson(part.state.input) !== key) return false;
    same++;
  }
  return same === DOOM_LOOP_THRESHOLD - 1;
}

/** JSON with object keys sorted, so `{a,b}` and `{b,a}` compare equal. */
export function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}
