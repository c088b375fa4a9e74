import type { SessionStatus, SessionSummary } from "./api.ts";

// Lathe names a session "New session <ISO time>" until its first prompt gives it a title.
const UNTITLED = /^New session \d{4}-\d{2}-\d{2}T[\d:.]+Z$/;

/** A session's title, or undefined while the server has not named it yet. */
export function titleOf(session: SessionSummary): string | undefined {
  return session.title.trim() === "" || UNTITLED.test(session.title) ? undefined : session.title;
}

const STATUS_LABEL: Record<Exclude<SessionStatus, "idle">, string> = { working: "working", waiting: "waiting for you" };

/** "just now", "5 min ago", a time today, or a date. */
function when(time: number, now: number): string {
  const minutes = Math.round((now - time) / 60_000);
  if (minutes < 1) return "just now";
  if (minutes < 60) return `${minutes} min ago`;
  const date = new Date(time);
  return date.toDateString() === new Date(now).toDateString() ? date.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }) : date.toLocaleDateString();
}

/** The sessions, newest first, each with its title and what it is doing now. */
export function SessionList(props: {
  sessions: SessionSummary[];
  activeID: string | undefined;
  /** The open session's state as this page sees it live (fresher than the last list). */
  activeStatus: SessionStatus | undefined;
  onSelect: (id: string) => void;
}) {
  const now = Date.now();
  return (
    <ul className="sessions" data-testid="sessions">
      {props.sessions.map((session) => {
        const active = session.id === props.activeID;
        const status = (active ? props.activeStatus : undefined) ?? session.status ?? "idle";
        const title = titleOf(session);
        return (
          <li key={session.id} className={active ? "active" : ""} data-status={status} data-session-id={session.id}>
            <button type="button" className="session-button" aria-current={active ? "page" : undefined} onClick={() => props.onSelect(session.id)}>
              <span className={title ? "session-title" : "session-title untitled"}>{title ?? "New session"}</span>
              <span className="session-meta">
                {status !== "idle" && (
                  <span className={`session-status status-${status}`} data-testid="session-status">
                    {STATUS_LABEL[status]}
                  </span>
                )}
                <time dateTime={new Date(session.time.updated).toISOString()}>{when(session.time.updated, now)}</time>
              </span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}
