import type { SessionSummary } from "./api.ts";

/** The open session's cost so far, and what prompt caching saved of it (at the model's prices). */
export function UsageLine(props: { usage: NonNullable<SessionSummary["usage"]> }) {
  const { cost, cacheSaved } = props.usage;
  return (
    <p className="usage" data-testid="session-usage">
      ${cost.toFixed(4)}
      {cacheSaved ? ` · cache saved $${cacheSaved.toFixed(4)}` : ""}
    </p>
  );
}
