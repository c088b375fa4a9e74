import { useState, type FormEvent } from "react";
import type { LatheUIDataTypes } from "@lathe/core";

/** A person's answer to one approval request, as the bar gives it. */
export interface ApprovalChoice {
  approved: boolean;
  always?: boolean;
  reason?: string;
}

type Permission = LatheUIDataTypes["permission"];

/**
 * What a call asks to do, and the four answers: allow once, allow always (the request's `always`
 * patterns, for the rest of the session), reject, and reject with feedback the model reads.
 */
export function ApprovalBar(props: { tool: string; permission: Permission | undefined; onAnswer: (choice: ApprovalChoice) => void }) {
  const { permission } = props;
  const [feedback, setFeedback] = useState<string | undefined>();
  const asked = permission ? `${permission.permission} ${permission.patterns.join(", ")}` : props.tool;
  // A request that could not be analysed (an opaque shell command) is never covered by "always".
  const canAlways = permission ? permission.always.length > 0 && !permission.opaque : true;
  const alwaysHint = permission?.always.length ? `Allow ${permission.permission} ${permission.always.join(", ")} for the rest of this session` : "Allow requests like this for the rest of this session";

  const sendFeedback = (event: FormEvent) => {
    event.preventDefault();
    const reason = feedback?.trim();
    if (reason) props.onAnswer({ approved: false, reason });
  };

  return (
    <div className="approval" data-testid="approval">
      <div className="approval-question">
        Allow <code>{asked}</code>?
      </div>
      {feedback === undefined ? (
        <div className="approval-actions">
          <button type="button" data-testid="approve" onClick={() => props.onAnswer({ approved: true })}>
            Allow once
          </button>
          {canAlways && (
            <button type="button" className="secondary" data-testid="approve-always" title={alwaysHint} onClick={() => props.onAnswer({ approved: true, always: true })}>
              Allow always
            </button>
          )}
          <button type="button" className="secondary" data-testid="reject" onClick={() => props.onAnswer({ approved: false })}>
            Reject
          </button>
          <button type="button" className="secondary" data-testid="reject-feedback" onClick={() => setFeedback("")}>
            Reject with feedback…
          </button>
        </div>
      ) : (
        <form className="approval-feedback" onSubmit={sendFeedback}>
          <textarea
            data-testid="feedback"
            autoFocus
            rows={2}
            value={feedback}
            placeholder="Tell the agent what to do instead"
            onChange={(event) => setFeedback(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) sendFeedback(event);
              if (event.key === "Escape") {
                event.stopPropagation();
                setFeedback(undefined);
              }
            }}
          />
          <div className="approval-actions">
            <button type="submit" data-testid="send-feedback" disabled={!feedback.trim()}>
              Reject and tell the agent
            </button>
            <button type="button" className="secondary" onClick={() => setFeedback(undefined)}>
              Cancel
            </button>
          </div>
        </form>
      )}
    </div>
  );
}
