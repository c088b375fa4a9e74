import { useChat } from "@ai-sdk/react";
import { DefaultChatTransport } from "ai";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { LatheUIDataTypes, LatheUIMessage } from "@lathe/core";
import { api, describeError, isUnreachable, type BusyMessageReply, type QueuedPrompt, type SessionStatus, type SessionSummary, type WhileBusy } from "./api.ts";
import { ApprovalBar, type ApprovalChoice } from "./approval-bar.tsx";
import { authHeaders } from "./auth.ts";
import { Composer } from "./composer.tsx";
import { ConfirmDialog } from "./confirm-dialog.tsx";
import { EmptyState } from "./empty-state.tsx";
import { MessageView } from "./message-view.tsx";
import { steeredIDs, transcript } from "./transcript.ts";
import { useRetryWhileUnreachable } from "./use-retry.ts";

type Permission = LatheUIDataTypes["permission"];

/** A prompt typed before its session existed: the chat sends it once, when it opens. */
export interface FirstPrompt {
  text: string;
}
const sentFirstPrompts = new WeakSet<FirstPrompt>();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A message typed while the agent worked, shown as waiting until the conversation shows it in place. */
interface Outgoing {
  key: string;
  text: string;
  whileBusy: WhileBusy;
  /** The server's reply once it stored the message. */
  reply?: BusyMessageReply;
}

const queuedText = (queued: QueuedPrompt) => queued.input.flatMap((part) => (part.type === "text" && part.text ? [part.text] : [])).join("\n");
/** The prompts the server holds on the session's queue, as this page shows them. */
const fromQueue = (queue: readonly QueuedPrompt[] | undefined): Outgoing[] =>
  (queue ?? []).map((queued) => ({ key: queued.id, text: queuedText(queued), whileBusy: "queue", reply: { delivery: "queue", queuedID: queued.id } }));
let outgoingCount = 0;

/** Whether a message has a tool call waiting for an answer. */
const waitsForApproval = (message: LatheUIMessage | undefined) =>
  message?.role === "assistant" && message.parts.some((part) => part.type.startsWith("tool-") && "state" in part && part.state === "approval-requested");

/** Whether an answer's last call was rejected by a person (a plain reject stops the turn). */
const endedByRejection = (message: LatheUIMessage) =>
  message.parts.some((part) => "state" in part && part.type.startsWith("tool-") && (part.state === "output-denied" || (part.state === "approval-responded" && part.approval.approved === false)));

/**
 * One session's conversation: useChat on examples/server's `/chat` route. The run belongs to the
 * server: leaving this chat (another session, a reload, a closed tab) only closes the connection,
 * and opening the session again rejoins its live run (`resume`). Only Stop (or Esc) ends a run.
 */
export function Chat(props: {
  session: SessionSummary;
  initial: LatheUIMessage[];
  /** Requests waiting when the chat opened, with what they ask (an edit's diff). */
  pending: Permission[];
  firstPrompt?: FirstPrompt | undefined;
  /** The session's state as this page sees it: its run streaming here, or a call shown waiting. */
  onLiveStatus: (status: SessionStatus | undefined) => void;
  /** Something changed that the session list shows (a title, a finished run, a revert). */
  onChanged: (options?: { reopen?: boolean }) => void;
}) {
  const { session } = props;
  const id = session.id;
  // Approval requests with their details arrive as transient data parts, kept here by request id.
  const [permissions, setPermissions] = useState<Record<string, Permission>>(() => Object.fromEntries(props.pending.map((p) => [p.id, p])));
  const [draft, setDraft] = useState("");
  const [problem, setProblem] = useState<string | undefined>();
  const [confirmRevert, setConfirmRevert] = useState<string | undefined>();
  const [answered, setAnswered] = useState<Set<string>>(() => new Set());
  // Messages typed while the agent works, and the session's queued prompts (they survive a reload: the server stores them).
  const [outgoing, setOutgoing] = useState<Outgoing[]>(() => fromQueue(session.queue));
  const lastSent = useRef<string | undefined>(undefined);
  /** Where the reverted messages start in `messages` (-1: no revert), for `send`. */
  const revertAtRef = useRef(-1);

  const transport = useMemo(() => new DefaultChatTransport<LatheUIMessage>({ api: "/chat", headers: authHeaders }), []);
  const { messages, setMessages, sendMessage, status, error, clearError, resumeStream, addToolApprovalResponse } = useChat<LatheUIMessage>({
    id,
    messages: props.initial,
    // Rejoin the session's run if one is going (a brand-new session's first prompt starts one).
    resume: !props.firstPrompt,
    transport,
    onData: (part) => {
      if (part.type !== "data-permission") return;
      const request = part.data as Permission;
      setPermissions((known) => ({ ...known, [request.id]: request }));
    },
    onFinish: ({ message, isDisconnect, isError }) => {
      if (isDisconnect) return;
      // A plain "Reject" ends the turn on purpose: the error that closes the stream is no failure.
      if (isError && !endedByRejection(message)) return;
      if (isError) clearError();
      // The stored history gives the messages their Lathe ids (revert needs them). A message sent
      // while this turn ran and not answered by it (queued, or left when the turn was stopped)
      // has a turn of its own now: follow it.
      void reload().then((fresh) => {
        if (fresh?.busy) void follow();
      });
      props.onChanged();
    },
  });
  const busy = status === "submitted" || status === "streaming";
  const attached = useRef(busy);
  attached.current = busy;
  // The answer started: the list has news (the session's title from its prompt, "working").
  useEffect(() => {
    if (status === "streaming") props.onChanged();
  }, [status, props.onChanged]);

  /** The stored history (and the requests still waiting) in place of what this page holds. */
  const reload = useCallback(async () => {
    try {
      // The queue first: a prompt leaves it in the write that stores it as a message, so read in this
      // order it is in one or the other (or briefly both), never in neither.
      const { session: now, busy: running } = await api.session(id);
      const [fresh, pending] = await Promise.all([api.messages(id), api.pending(id)]);
      const stillQueued = new Set(now.queue?.map((queued) => queued.id));
      const onQueue = (reply: BusyMessageReply) => reply.jobID !== undefined || (reply.queuedID !== undefined && stillQueued.has(reply.queuedID));
      setOutgoing((all) => all.filter((item) => item.reply?.delivery !== "queue" || onQueue(item.reply)));
      if (attached.current) return; // a stream took over meanwhile: it is fresher
      setPermissions((known) => ({ ...known, ...Object.fromEntries(pending.map((p) => [p.id, p])) }));
      setMessages(fresh);
      // A message the history holds now is shown from it (where it is, or waiting: see transcript.ts);
      // one a worker took (worker mode: known by its job only) is in it once nothing runs.
      const stored = new Set(fresh.map((message) => message.id));
      setOutgoing((all) =>
        all.filter((item) => (item.reply?.messageID === undefined ? !(item.reply?.jobID !== undefined && !running) : !stored.has(item.reply.messageID))),
      );
      return { messages: fresh, busy: running };
    } catch (failure) {
      setProblem(describeError(failure));
      return undefined;
    }
  }, [id, setMessages]);

  const send = useCallback(
    (text: string) => {
      setProblem(undefined);
      lastSent.current = text;
      if (revertAtRef.current >= 0) {
        setMessages((all) => all.slice(0, revertAtRef.current));
        setRevertFinal(true);
      }
      void sendMessage({ text });
      props.onChanged();
    },
    [sendMessage, setMessages, props.onChanged],
  );

  useEffect(() => {
    const first = props.firstPrompt;
    if (!first || sentFirstPrompts.has(first)) return;
    sentFirstPrompts.add(first);
    send(first.text);
  }, [props.firstPrompt, send]);

  // Tell the list what this session is doing, as this page sees it.
  const subagentRequests = busy ? Object.values(permissions).filter((p) => p.sessionID !== id && !answered.has(p.id)) : [];
  // A call shown waiting is waiting for you whether or not a stream is attached (after a restart).
  const liveStatus: SessionStatus | undefined =
    waitsForApproval(messages.at(-1)) || subagentRequests.length > 0 ? "waiting" : busy ? "working" : undefined;
  useEffect(() => props.onLiveStatus(liveStatus), [liveStatus, props.onLiveStatus]);
  useEffect(() => () => props.onLiveStatus(undefined), [props.onLiveStatus]);

  // After an answer while no stream is attached (the run was started by another tab, or the
  // server restarted), follow the run the answer lets go on until the session is idle again.
  const following = useRef(false);
  const follow = useCallback(async () => {
    if (following.current) return;
    following.current = true;
    try {
      for (let tries = 0; tries < 40 && !attached.current; tries++) {
        await resumeStream();
        const { busy: running } = await api.session(id);
        if (!running) break;
        await sleep(250);
      }
      if (!attached.current) await reload();
      props.onChanged();
    } catch (failure) {
      setProblem(describeError(failure));
    } finally {
      following.current = false;
    }
  }, [id, resumeStream, reload, props.onChanged]);

  /**
   * A message typed while the run streams: shown at once as waiting, stored by the server (steered
   * into the running turn, or queued after it). A message the server could not take goes back into
   * the box.
   */
  const sendWhileBusy = useCallback(
    (text: string, whileBusy: WhileBusy) => {
      setProblem(undefined);
      const key = `outgoing-${++outgoingCount}`;
      setOutgoing((all) => [...all, { key, text, whileBusy }]);
      api
        .sendWhileBusy(id, text, whileBusy)
        .then((reply) => {
          // Queued with no entry left: its turn has begun already, and the history shows it.
          const gone = reply.delivery === "queue" && reply.queuedID === undefined;
          setOutgoing((all) => (gone ? all.filter((item) => item.key !== key) : all.map((item) => (item.key === key ? { ...item, reply } : item))));
          // The turn had ended: the message started one of its own (or a worker runs it): follow it.
          if ((reply.delivery === "turn" || reply.jobID !== undefined) && !attached.current) void follow();
        })
        .catch((failure: unknown) => {
          setOutgoing((all) => all.filter((item) => item.key !== key));
          setDraft((now) => now || text);
          setProblem(describeError(failure));
        });
    },
    [id, follow],
  );

  const answer = (approvalId: string, choice: ApprovalChoice) => {
    setProblem(undefined);
    setAnswered((known) => new Set(known).add(approvalId));
    // Shown at once here; the server is told now (useChat posts nothing while its stream is open).
    void addToolApprovalResponse({ id: approvalId, approved: choice.approved, ...(choice.reason ? { reason: choice.reason } : {}) });
    api
      .answer(id, [{ id: approvalId, ...choice }])
      .then(() => {
        if (!attached.current) void follow();
      })
      .catch((failure: unknown) => {
        setProblem(describeError(failure));
        setAnswered((known) => {
          const left = new Set(known);
          left.delete(approvalId);
          return left;
        });
        void reload(); // the request is shown waiting again
      });
  };

  const stopRun = useCallback(() => {
    api.abort(id).catch((failure: unknown) => setProblem(describeError(failure)));
  }, [id]);

  // Esc stops the run (unless a dialog or a feedback box has it).
  useEffect(() => {
    if (!busy) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape" && !event.defaultPrevented && !document.querySelector("dialog[open]")) stopRun();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [busy, stopRun]);

  // The connection dropped (server stopped or restarting, network gone): try again every second;
  // once the server answers, show what it stored and rejoin the run if one goes on.
  const lost = error !== undefined && isUnreachable(error);
  const reconnect = useCallback(async () => {
    const fresh = await Promise.all([api.messages(id), api.pending(id)]);
    clearError();
    setPermissions((known) => ({ ...known, ...Object.fromEntries(fresh[1].map((p) => [p.id, p])) }));
    setMessages(fresh[0]);
    // A message that never reached the server goes back into the box instead of vanishing.
    const unsent = lastSent.current;
    if (unsent && !fresh[0].some((m) => m.role === "user" && m.parts.some((p) => p.type === "text" && p.text === unsent))) setDraft((now) => now || unsent);
    lastSent.current = undefined;
    props.onChanged();
    void resumeStream();
  }, [id, clearError, setMessages, resumeStream, props.onChanged]);
  useRetryWhileUnreachable(lost, reconnect, (failure) => {
    // The server is back but refuses (a new token after a restart): say so, stop trying.
    clearError();
    setProblem(describeError(failure));
  });

  // Follow the answer as it streams, unless the reader scrolled up.
  const scroller = useRef<HTMLDivElement>(null);
  const pinned = useRef(true);
  useEffect(() => {
    const element = scroller.current;
    if (element && pinned.current) element.scrollTop = element.scrollHeight;
  }, [messages, error, problem]); // a notice at the end is news too

  // A new message after a revert makes it final: the server drops the reverted messages.
  const [revertFinal, setRevertFinal] = useState(false);
  const reverted = revertFinal ? undefined : session.revert?.messageID;
  const revertAt = reverted ? messages.findIndex((m) => m.id === reverted) : -1;
  const shown = revertAt >= 0 ? messages.slice(0, revertAt) : messages;
  revertAtRef.current = revertAt;
  const items = transcript(shown, { busy, streaming: status === "streaming" });
  // What the page sent and the conversation does not show in place yet.
  const inPlace = new Set([...steeredIDs(shown), ...shown.map((message) => message.id)]);
  const waiting = outgoing.filter((item) => item.reply?.messageID === undefined || !inPlace.has(item.reply.messageID));
  const revert = (messageID: string) => {
    setConfirmRevert(undefined);
    api
      .revert(id, messageID)
      .then(() => props.onChanged({ reopen: true }))
      .catch((failure: unknown) => setProblem(describeError(failure)));
  };

  return (
    <main className="chat">
      <div
        className="messages"
        data-testid="messages"
        ref={scroller}
        onScroll={(event) => {
          const element = event.currentTarget;
          pinned.current = element.scrollHeight - element.scrollTop - element.clientHeight < 80;
        }}
      >
        {shown.length === 0 && !reverted && !busy && <EmptyState onExample={setDraft} />}
        {items.map((item) =>
          item.kind === "waiting" ? (
            <MessageView key={item.key} message={item.message} permissions={permissions} onAnswer={answer} waiting={{ whileBusy: "steer", stored: true }} />
          ) : (
            <MessageView
              key={item.key}
              message={item.message}
              permissions={permissions}
              onAnswer={answer}
              steered={item.steered}
              {...(item.message.role === "user" && !busy && !item.steered ? { onRevert: () => setConfirmRevert(item.message.id) } : {})}
            />
          ),
        )}
        {waiting.map((item) => (
          <MessageView
            key={item.key}
            message={{ id: item.key, role: "user", parts: [{ type: "text", text: item.text }] }}
            permissions={permissions}
            onAnswer={answer}
            waiting={{ whileBusy: item.reply?.delivery === "queue" ? "queue" : item.whileBusy, stored: item.reply !== undefined }}
          />
        ))}
        {busy && items.at(-1)?.message.role === "user" && (
          <div className="working" data-testid="working">
            Working…
          </div>
        )}
        {reverted && (
          <div className="reverted" data-testid="reverted">
            Reverted: the later messages and their file changes are undone.{" "}
            <button
              type="button"
              className="secondary"
              onClick={() =>
                api
                  .unrevert(id)
                  .then(() => props.onChanged({ reopen: true }))
                  .catch((failure: unknown) => setProblem(describeError(failure)))
              }
            >
              Undo revert
            </button>
          </div>
        )}
        {subagentRequests.map((request) => (
          <div key={request.id} className="subagent-approval" data-testid="subagent-approval">
            <div>A subagent asks:</div>
            <ApprovalBar tool={request.permission} permission={request} onAnswer={(choice) => answer(request.id, choice)} />
          </div>
        ))}
        {lost ? (
          <div className="notice" role="status" data-testid="reconnecting">
            Lost the connection to the server. Reconnecting…{" "}
            <button type="button" className="secondary" onClick={() => void reconnect().catch(() => undefined)}>
              Retry now
            </button>
          </div>
        ) : (
          error && (
            <div className="notice notice-error" role="alert" data-testid="chat-error">
              {describeError(error)}{" "}
              <button
                type="button"
                className="secondary"
                onClick={() => {
                  clearError();
                  void reload().then(() => resumeStream());
                }}
              >
                Retry
              </button>
            </div>
          )
        )}
        {problem && (
          <div className="notice notice-error" role="alert" data-testid="problem">
            {problem}{" "}
            <button type="button" className="secondary" onClick={() => setProblem(undefined)}>
              Dismiss
            </button>
          </div>
        )}
      </div>
      <Composer text={draft} onText={setDraft} busy={busy} disabled={lost} onSend={send} onSendWhileBusy={sendWhileBusy} onStop={stopRun} />
      {confirmRevert && (
        <ConfirmDialog
          title="Revert to this message?"
          body="This message and everything after it are taken back, and the files the agent changed since are restored. You can undo the revert afterwards."
          confirm="Revert"
          onConfirm={() => revert(confirmRevert)}
          onCancel={() => setConfirmRevert(undefined)}
        />
      )}
    </main>
  );
}
