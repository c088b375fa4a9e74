import type { LatheToolOutput, LatheUIDataTypes } from "@lathe/core";
import { ApprovalBar, type ApprovalChoice } from "./approval-bar.tsx";
import { DiffView } from "./diff-view.tsx";

/** A tool part of a UI message, as this app reads it. */
export interface ToolPartView {
  type: string;
  toolCallId: string;
  state: string;
  input?: unknown;
  output?: unknown;
  errorText?: string;
  approval?: { id: string; approved?: boolean; reason?: string };
}

/** The badge of each state; a call answered "no" is rejected, not failed. */
function statusOf(part: ToolPartView): { label: string; tone: string } {
  switch (part.state) {
    case "input-streaming":
      return { label: "preparing", tone: "busy" };
    case "input-available":
      return { label: "running", tone: "busy" };
    case "approval-requested":
      return { label: "needs approval", tone: "ask" };
    case "approval-responded":
      return part.approval?.approved === false ? { label: "rejected", tone: "muted" } : { label: "approved", tone: "busy" };
    case "output-available":
      return { label: "done", tone: "ok" };
    case "output-error":
      return { label: "failed", tone: "bad" };
    case "output-denied":
      return { label: "rejected", tone: "muted" };
    default:
      return { label: part.state, tone: "muted" };
  }
}

/** One line saying what the call does: its command, path or pattern. */
function summary(input: unknown): string {
  if (!input || typeof input !== "object") return "";
  const fields = input as Record<string, unknown>;
  for (const key of ["command", "path", "filePath", "pattern", "url", "description"]) {
    if (typeof fields[key] === "string") return fields[key];
  }
  return "";
}

/** A tool call: name, status, what it does; its approval bar while it waits; its diff and output. */
export function ToolCard(props: {
  part: ToolPartView;
  permission: LatheUIDataTypes["permission"] | undefined;
  onAnswer: (approvalId: string, choice: ApprovalChoice) => void;
}) {
  const { part, permission } = props;
  const name = part.type.slice("tool-".length);
  const output = part.state === "output-available" ? (part.output as LatheToolOutput) : undefined;
  const diff = (output?.metadata.diff ?? permission?.metadata.diff) as string | undefined;
  const status = statusOf(part);
  const rejected = part.state === "output-denied" || (part.state === "approval-responded" && part.approval?.approved === false);
  return (
    <div className={`tool tool-${status.tone}`} data-testid="tool-card" data-tool={name} data-state={part.state} data-call-id={part.toolCallId}>
      <div className="tool-head">
        <span className="tool-name">{name}</span>
        <span className="tool-summary">{summary(part.input)}</span>
        <span className={`badge badge-${status.tone}`}>{status.label}</span>
      </div>
      {part.state === "approval-requested" && part.approval && (
        <ApprovalBar tool={name} permission={permission} onAnswer={(choice) => props.onAnswer(part.approval!.id, choice)} />
      )}
      {diff && diff.trim() !== "" && <DiffView diff={diff} />}
      {output && !diff && output.output.trim() !== "" && <pre className="tool-output">{output.output.slice(0, 2000)}</pre>}
      {part.state === "output-error" && <pre className="tool-error">{part.errorText}</pre>}
      {rejected && (
        <div className="tool-rejected" data-testid="rejected">
          Rejected{part.approval?.reason ? <> with feedback: “{part.approval.reason}”</> : ": the call did not run."}
        </div>
      )}
    </div>
  );
}
