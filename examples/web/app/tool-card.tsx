import type { LatheToolOutput, LatheUIDataTypes } from "@lathe/core";
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

const STATUS: Record<string, string> = {
  "input-streaming": "preparing",
  "input-available": "running",
  "approval-requested": "needs approval",
  "approval-responded": "answered",
  "output-available": "done",
  "output-error": "failed",
  "output-denied": "rejected",
};

/** One line saying what the call does: its command, path or pattern. */
function summary(input: unknown): string {
  if (!input || typeof input !== "object") return "";
  const fields = input as Record<string, unknown>;
  for (const key of ["command", "path", "filePath", "pattern", "url", "description"]) {
    if (typeof fields[key] === "string") return fields[key];
  }
  return "";
}

/** A tool call: name, status, what it does; its approval buttons while it waits; its diff and output. */
export function ToolCard(props: {
  part: ToolPartView;
  permission: LatheUIDataTypes["permission"] | undefined;
  onAnswer: (approvalId: string, approved: boolean) => void;
}) {
  const { part, permission } = props;
  const name = part.type.slice("tool-".length);
  const output = part.state === "output-available" ? (part.output as LatheToolOutput) : undefined;
  const diff = (output?.metadata.diff ?? permission?.metadata.diff) as string | undefined;
  return (
    <div className={`tool tool-${part.state}`} data-testid="tool-card" data-tool={name} data-state={part.state}>
      <div className="tool-head">
        <span className="tool-name">{name}</span>
        <span className="tool-summary">{summary(part.input)}</span>
        <span className={`badge badge-${part.state}`}>{STATUS[part.state] ?? part.state}</span>
      </div>
      {part.state === "approval-requested" && part.approval && (
        <div className="approval">
          <span>Allow {permission ? `${permission.permission} ${permission.patterns.join(", ")}` : name}?</span>
          <button data-testid="approve" onClick={() => props.onAnswer(part.approval!.id, true)}>
            Approve
          </button>
          <button data-testid="reject" className="secondary" onClick={() => props.onAnswer(part.approval!.id, false)}>
            Reject
          </button>
        </div>
      )}
      {diff && diff.trim() !== "" && <DiffView diff={diff} />}
      {output && !diff && output.output.trim() !== "" && <pre className="tool-output">{output.output.slice(0, 2000)}</pre>}
      {part.state === "output-error" && <pre className="tool-error">{part.errorText}</pre>}
      {part.state === "output-denied" && <div className="tool-error">Rejected{part.approval?.reason ? `: ${part.approval.reason}` : ""}</div>}
    </div>
  );
}
