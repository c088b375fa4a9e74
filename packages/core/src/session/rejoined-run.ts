import type { AgentEvent } from "../events.js";

/**
 * A session's running turn as a client that joins it late sees it: the run's events from its start
 * (replayed from the session's event log), then live, ending with the run. `toUIMessageStream`
 * turns it into the same UI message stream the run's first client got, which is what `useChat`'s
 * `resume` expects (it replaces the message it shows with the replayed one).
 */
export interface RejoinedRun extends AsyncIterable<AgentEvent> {
  /** The session the run answers in. */
  readonly sessionID: string;
}

/** Whether an event ends a session's run: its own `idle` status (a subagent's idle does not). */
export function endsRun(sessionID: string, event: AgentEvent): boolean {
  return event.type === "session.status" && event.sessionID === sessionID && event.status.type === "idle";
}

/**
 * A rejoined run from any source of the session's events that starts at the run's beginning — the
 * agent's own log ({@link SessionsApi.rejoin}) or another process's (`@lathe/queue`'s event log in
 * worker mode). It ends after the session's `idle` status, or when the source ends.
 */
export function rejoinRun(sessionID: string, events: AsyncIterable<AgentEvent | { event: AgentEvent }>): RejoinedRun {
  return {
    sessionID,
    async *[Symbol.asyncIterator]() {
      for await (const item of events) {
        const event = "type" in item ? item : item.event;
        yield event;
        if (endsRun(sessionID, event)) return;
      }
    },
  };
}
