import { useCallback, useEffect, useState } from "react";
import type { LatheUIMessage } from "@lathe/core";
import { api, type SessionSummary } from "./api.ts";
import { Chat } from "./chat.tsx";
import { UsageLine } from "./usage-line.tsx";

/** The session list beside the open session's chat. */
export function App() {
  const [sessions, setSessions] = useState<SessionSummary[]>([]);
  const [open, setOpen] = useState<{ session: SessionSummary; messages: LatheUIMessage[] } | undefined>();

  const refresh = useCallback(async () => setSessions(await api.sessions()), []);
  const select = useCallback(async (id: string) => {
    const [{ session }, messages] = await Promise.all([api.session(id), api.messages(id)]);
    setOpen({ session, messages });
  }, []);

  useEffect(() => {
    void refresh();
  }, [refresh]);

  const create = async () => {
    const session = await api.createSession();
    await refresh();
    await select(session.id);
  };

  return (
    <div className="app">
      <aside className="sidebar">
        <h1>Lathe</h1>
        <button data-testid="new-session" onClick={() => void create()}>
          New session
        </button>
        <ul className="sessions" data-testid="sessions">
          {sessions.map((s) => (
            <li key={s.id} className={s.id === open?.session.id ? "active" : ""} onClick={() => void select(s.id)}>
              <span>{s.title}</span>
              <time>{new Date(s.time.updated).toLocaleTimeString()}</time>
            </li>
          ))}
        </ul>
        {open?.session.usage ? <UsageLine usage={open.session.usage} /> : null}
      </aside>
      {open ? (
        <Chat
          key={`${open.session.id}:${open.session.revert?.messageID ?? ""}`}
          session={open.session}
          initial={open.messages}
          onChanged={() => void refresh().then(() => select(open.session.id))}
        />
      ) : (
        <main className="chat empty">Create a session to start.</main>
      )}
    </div>
  );
}
