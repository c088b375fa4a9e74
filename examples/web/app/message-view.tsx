import type { LatheUIDataTypes, LatheUIMessage } from "@lathe/core";
import type { WhileBusy } from "./api.ts";
import type { ApprovalChoice } from "./approval-bar.tsx";
import { MarkdownText } from "./markdown.tsx";
import { Reasoning } from "./reasoning.tsx";
import { ToolCard, type ToolPartView } from "./tool-card.tsx";

type Permission = LatheUIDataTypes["permission"];

/** One message: the user's words, or the answer's text, reasoning, tool calls and changed files. */
export function MessageView(props: {
  message: LatheUIMessage;
  permissions: Record<string, Permission>;
  /** Offered on the user's messages when nothing runs: asks first, then reverts. */
  onRevert?: () => void;
  onAnswer: (approvalId: string, choice: ApprovalChoice) => void;
  /** A user message sent while the agent works that no turn has taken yet: how it waits, and whether the server stored it yet. */
  waiting?: { whileBusy: WhileBusy; stored: boolean } | undefined;
  /** A user message shown where it entered the running turn (steered in). */
  steered?: boolean;
}) {
  const { message } = props;
  const error = message.metadata?.error;
  return (
    <div
      className={`message message-${message.role}${props.waiting ? " message-waiting" : ""}`}
      data-testid={props.waiting ? "waiting-message" : `message-${message.role}`}
      data-message-id={message.id}
      {...(props.waiting ? { "data-while-busy": props.waiting.whileBusy, "data-stored": String(props.waiting.stored) } : {})}
      {...(props.steered ? { "data-steered": "true" } : {})}
    >
      {props.onRevert && (
        <button type="button" className="revert icon" data-testid="revert" title="Revert to here…" aria-label="Revert to here" onClick={props.onRevert}>
          ↶
        </button>
      )}
      {message.parts.map((part, i) => {
        if (part.type === "text") return message.role === "user" ? <div key={i} className="user-text">{part.text}</div> : <MarkdownText key={i} text={part.text} />;
        if (part.type === "reasoning") return part.text.trim() === "" ? null : <Reasoning key={i} text={part.text} streaming={part.state === "streaming"} />;
        if (part.type.startsWith("tool-")) {
          const tool = part as unknown as ToolPartView;
          return <ToolCard key={tool.toolCallId} part={tool} permission={tool.approval ? props.permissions[tool.approval.id] : undefined} onAnswer={props.onAnswer} />;
        }
        if (part.type === "data-patch") return <div key={i} className="patch">Changed {(part.data as LatheUIDataTypes["patch"]).files.join(", ")}</div>;
        return null;
      })}
      {props.waiting && (
        <div className="waiting-note" data-testid="waiting-note">
          {!props.waiting.stored ? "Sending…" : props.waiting.whileBusy === "steer" ? "Queued — the agent reads it at its next step" : "Queued for the next turn — sent when this one ends"}
        </div>
      )}
      {message.role === "assistant" && message.metadata?.finish === "aborted" && <div className="stopped">Stopped.</div>}
      {error?.name === "RejectedError" && <div className="stopped">Stopped: a call was rejected.</div>}
      {error && error.name !== "RejectedError" && message.metadata?.finish !== "aborted" && (
        <div className="message-error" role="alert">
          The answer failed: {error.message}
        </div>
      )}
    </div>
  );
}
