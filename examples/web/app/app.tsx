import { useCallback, useEffect, useRef, useState } from "react";
import type { LatheUIDataTypes, LatheUIMessage } from "@lathe/core";
import { api, describeError, type SessionStatus, type SessionSummary } from "./api.ts";
import { adoptToken } from "./auth.ts";
import { Chat, type FirstPrompt } from "./chat.tsx";
import { Composer } from "./composer.tsx";
import { EmptyState } from "./empty-state.tsx";
import { SessionList, titleOf } from "./session-list.tsx";
import { UsageLine } from "./usage-line.tsx";

const LAST_SESSION_KEY = "lathe-session";
/** How often the list is read again: titles arrive and other tabs' runs change state. */
const LIST_EVERY_MS = 2000;

interface OpenSession {
  session: SessionSummary;
  messages: LatheUIMessage[];
  pending: LatheUIDataTypes["permission"][];
  firstPrompt?: FirstPrompt;
}

function remembered(): string | undefined {
  try {
    return localStorage.getItem(LAST_SESSION_KEY) ?? undefined;
  } catch {
    return undefined;
  }
}
function remember(id: string): void {
  try {
    localStorage.setItem(LAST_SESSION_KEY, id);
  } catch {
    // storage disabled: a reload opens the newest session instead
  }
}

/** The session list (a drawer on a phone) beside the open session's chat. */
export function App() {
  const [sessions, setSessions] = useState<SessionSummary[] | undefined>();
  const [listError, setListError] = useState<string | undefined>();
  const [open, setOpen] = useState<OpenSession | undefined>();
  const [opening, setOpening] = useState<string | undefined>();
  const [openError, setOpenError] = useState<{ id: string; message: string } | undefined>();
  const [liveStatus, setLiveStatus] = useState<SessionStatus | undefined>();
  const [drawer, setDrawer] = useState(false);
  const [draft, setDraft] = useState("");
  const latestOpen = useRef(0);

  const refresh = useCallback(async () => {
    try {
      const list = await api.sessions();
      setSessions(list);
      setListError(undefined);
      return list;
    } catch (error) {
      setListError(describeError(error));
      return undefined;
    }
  }, []);

  /** Opens a session: its stored messages and waiting requests, then its chat. */
  const select = useCallback(async (id: string, firstPrompt?: FirstPrompt) => {
    const request = ++latestOpen.current;
    setDrawer(false);
    setOpening(id);
    setOpenError(undefined);
    remember(id);
    try {
      const [{ session }, messages, pending] = await Promise.all([api.session(id), api.messages(id), api.pending(id)]);
      if (request !== latestOpen.current) return; // another session was chosen meanwhile
      setOpen({ session, messages, pending, ...(firstPrompt ? { firstPrompt } : {}) });
    } catch (error) {
      if (request === latestOpen.current) setOpenError({ id, message: describeError(error) });
    } finally {
      if (request === latestOpen.current) setOpening(undefined);
    }
  }, []);

  // First load: the token from the address, the list, and the session open last time (or the newest).
  const started = useRef(false);
  const start = useCallback(async () => {
    const list = await refresh();
    if (!list) return;
    started.current = true;
    if (list.length === 0) return;
    const last = remembered();
    await select(list.some((s) => s.id === last) ? last! : list[0]!.id);
  }, [refresh, select]);
  useEffect(() => {
    adoptToken();
    void start();
  }, [start]);

  useEffect(() => {
    // Until the first load succeeds (the server was down), each tick is a new first load.
    // A tab nobody looks at does not poll; it catches up when shown again.
    const tick = () => {
      if (document.visibilityState !== "hidden") void (started.current ? refresh() : start());
    };
    const timer = setInterval(tick, LIST_EVERY_MS);
    document.addEventListener("visibilitychange", tick);
    return () => {
      clearInterval(timer);
      document.removeEventListener("visibilitychange", tick);
    };
  }, [refresh, start]);

  // Esc closes the session drawer on a phone (caught first, so it does not also stop a run).
  useEffect(() => {
    if (!drawer) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") {
        event.preventDefault();
        setDrawer(false);
      }
    };
    document.addEventListener("keydown", onKey, true);
    return () => document.removeEventListener("keydown", onKey, true);
  }, [drawer]);

  const create = async (firstPrompt?: FirstPrompt) => {
    try {
      const session = await api.createSession();
      setSessions((list) => [session, ...(list ?? []).filter((s) => s.id !== session.id)]);
      await select(session.id, firstPrompt);
      void refresh();
    } catch (error) {
      setListError(describeError(error));
      if (firstPrompt) setDraft((now) => now || firstPrompt.text); // not sent: back into the box
    }
  };

  const onChanged = useCallback(
    (options?: { reopen?: boolean }) => {
      void refresh();
      if (options?.reopen && open) void select(open.session.id);
    },
    [refresh, select, open],
  );

  const active = open?.session.id;
  const activeTitle = sessions?.find((s) => s.id === active) ?? open?.session;
  const heading = activeTitle ? (titleOf(activeTitle) ?? "New session") : "Lathe";
  useEffect(() => {
    document.title = activeTitle ? `${heading} · Lathe` : "Lathe";
  }, [heading, activeTitle]);

  const retry = () => {
    setListError(undefined);
    void (started.current ? refresh() : start());
  };

  let pane;
  if (openError) {
    pane = (
      <main className="chat placeholder">
        <div className="notice notice-error" role="alert" data-testid="open-error">
          {openError.message}{" "}
          <button type="button" className="secondary" onClick={() => void select(openError.id)}>
            Retry
          </button>
        </div>
      </main>
    );
  } else if (open && opening === undefined) {
    pane = (
      <Chat
        key={`${open.session.id}:${open.session.revert?.messageID ?? ""}`}
        session={open.session}
        initial={open.messages}
        pending={open.pending}
        firstPrompt={open.firstPrompt}
        onLiveStatus={setLiveStatus}
        onChanged={onChanged}
      />
    );
  } else if (sessions === undefined || opening !== undefined || (sessions.length > 0 && !open)) {
    pane = (
      <main className="chat placeholder" data-testid="loading">
        {listError ? "" : "Loading…"}
      </main>
    );
  } else {
    // No session yet: the first message starts one.
    pane = (
      <main className="chat">
        <div className="messages">
          <EmptyState onExample={setDraft} />
        </div>
        <Composer
          text={draft}
          onText={setDraft}
          busy={false}
          disabled={listError !== undefined}
          onSend={(text) => {
            setDraft("");
            void create({ text });
          }}
          onStop={() => undefined}
        />
      </main>
    );
  }

  return (
    <div className={drawer ? "app drawer-open" : "app"}>
      <header className="topbar">
        <button type="button" className="icon secondary" data-testid="menu" aria-label="Sessions" aria-expanded={drawer} onClick={() => setDrawer(!drawer)}>
          ☰
        </button>
        <span className="topbar-title">{heading}</span>
      </header>
      <aside className="sidebar" data-testid="sidebar">
        <div className="sidebar-head">
          <h1>Lathe</h1>
          <button type="button" data-testid="new-session" onClick={() => void create()}>
            New session
          </button>
        </div>
        <SessionList sessions={sessions ?? []} activeID={active} activeStatus={liveStatus} onSelect={(id) => void select(id)} />
        {open?.session.usage ? <UsageLine usage={open.session.usage} /> : null}
      </aside>
      <div className="backdrop" onClick={() => setDrawer(false)} />
      <div className="main">
        {listError && (
          <div className="banner" role="alert" data-testid="server-down">
            {listError}{" "}
            <button type="button" className="secondary" data-testid="retry" onClick={retry}>
              Retry
            </button>
          </div>
        )}
        {pane}
      </div>
    </div>
  );
}
