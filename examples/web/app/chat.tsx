import { useChat } from "@ai-sdk/react";
import { DefaultChatTransport } from "ai";
import { useEffect, useRef, useState, type FormEvent } from "react";
import type { LatheUIDataTypes, LatheUIMessage } from "@lathe/core";
import { api, type SessionSummary } from "./api.ts";
import { ToolCard, type ToolPartView } from "./tool-card.tsx";

type Permission = LatheUIDataTypes["permission"];

/** One session's conversation: useChat on examples/server's `/chat` route. */
export function Chat(props: { session: SessionSummary; initial: LatheUIMessage[]; onChanged: () => void }) {
  const { session } = props;
  // Approval requests arrive as transient data parts (with an edit's diff), kept here by request id.
  const [permissions, setPermissions] = useState<Record<string, Permission>>({});
  const [input, setInput] = useState("");
  const { messages, setMessages, sendMessage, status, stop, error, addToolApprovalResponse } = useChat<LatheUIMessage>({
    id: session.id,
    messages: props.initial,
    transport: new DefaultChatTransport({ api: "/chat" }),
    onData: (part) => {
      if (part.type === "data-permission") {
        const request = part.data as Permission;
        setPermissions((known) => ({ ...known, [request.id]: request }));
      }
    },
    // The stored history gives the user's messages their Lathe ids (revert needs them).
    onFinish: () => {
      void api.messages(session.id).then(setMessages);
      props.onChanged();
    },
  });
  const busy = status === "submitted" || status === "streaming";
  // Follow the answer as it streams.
  const bottom = useRef<HTMLDivElement>(null);
  useEffect(() => {
    bottom.current?.scrollIntoView({ block: "end" });
  }, [messages]);
  const reverted = session.revert?.messageID;
  const revertAt = reverted ? messages.findIndex((m) => m.id === reverted) : -1;
  const shown = revertAt >= 0 ? messages.slice(0, revertAt) : messages;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!input.trim() || busy) return;
    void sendMessage({ text: input });
    setInput("");
  };

  const [answered, setAnswered] = useState<Set<string>>(new Set());
  const answer = (approvalId: string, approved: boolean) => {
    // Shown at once in this client; the server is told now (the stream is still open).
    void addToolApprovalResponse({ id: approvalId, approved });
    void api.approve(session.id, approvalId, approved);
    setAnswered((known) => new Set(known).add(approvalId));
  };
  // A subagent's requests belong to no tool card of this chat: they are listed on their own.
  const subagentRequests = busy ? Object.values(permissions).filter((p) => p.sessionID !== session.id && !answered.has(p.id)) : [];

  const stopRun = () => {
    void stop();
    void api.abort(session.id);
  };

  return (
    <main className="chat">
      <div className="messages" data-testid="messages">
        {shown.map((message) => (
          <div key={message.id} className={`message message-${message.role}`} data-testid={`message-${message.role}`}>
            {message.role === "user" && !busy && (
              <button
                className="revert secondary"
                data-testid="revert"
                title="Undo this message and the file changes made since"
                onClick={() => void api.revert(session.id, message.id).then(props.onChanged)}
              >
                Revert to here
              </button>
            )}
            {message.parts.map((part, i) => {
              if (part.type === "text") return <div key={i} className="text">{part.text}</div>;
              if (part.type === "reasoning")
                return (
                  <details key={i} className="reasoning" open data-testid="reasoning">
                    <summary>Thinking</summary>
                    {part.text}
                  </details>
                );
              if (part.type.startsWith("tool-")) {
                const tool = part as unknown as ToolPartView;
                return <ToolCard key={i} part={tool} permission={tool.approval ? permissions[tool.approval.id] : undefined} onAnswer={answer} />;
              }
              if (part.type === "data-patch") return <div key={i} className="patch">Changed {(part.data as { files: string[] }).files.join(", ")}</div>;
              return null;
            })}
            {message.role === "assistant" && message.metadata?.finish === "aborted" && <div className="stopped">Stopped.</div>}
          </div>
        ))}
        {reverted && (
          <div className="reverted" data-testid="reverted">
            Reverted: the later messages and their file changes are undone.{" "}
            <button className="secondary" onClick={() => void api.unrevert(session.id).then(props.onChanged)}>
              Undo revert
            </button>
          </div>
        )}
        {subagentRequests.map((request) => (
          <div key={request.id} className="approval" data-testid="subagent-approval">
            <span>
              A subagent asks: {request.permission} {request.patterns.join(", ")}
            </span>
            <button onClick={() => answer(request.id, true)}>Approve</button>
            <button className="secondary" onClick={() => answer(request.id, false)}>
              Reject
            </button>
          </div>
        ))}
        {error && <div className="error">{error.message}</div>}
        <div ref={bottom} />
      </div>
      <form className="composer" onSubmit={submit}>
        <input data-testid="prompt" value={input} placeholder="Ask Lathe to change something…" onChange={(e) => setInput(e.target.value)} />
        {busy ? (
          <button type="button" data-testid="stop" onClick={stopRun}>
            Stop
          </button>
        ) : (
          <button type="submit" data-testid="send">
            Send
          </button>
        )}
      </form>
    </main>
  );
}
