import type { MessageWithParts, Part, StoredPermissionRequest, ToolPart } from "@lathe/message";
import type { ProviderMetadata } from "ai";
import { approvalOf, dataPartOf, messageMetadata, toolOutput, uiApproval } from "./ui-parts.js";
import type { LatheUIMessage } from "./ui-types.js";

type UIPart = LatheUIMessage["parts"][number];

/** Options of {@link toUIMessages}. */
export interface ToUIMessagesOptions {
  /**
   * Approval requests still waiting (`agent.permissions.pending(sessionID)`): their tool calls show
   * as `approval-requested`, so a UI loaded mid-run can answer them.
   */
  pending?: readonly Pick<StoredPermissionRequest, "id" | "tool">[];
}

/**
 * Stored history as the AI SDK's UI messages, for loading a session into `useChat` (`messages`).
 * Each message keeps its id; the parts are those {@link toUIMessageStream} streams for it, so a
 * message read live with `readUIMessageStream` equals the same message loaded here afterwards:
 * text and reasoning (`done`), `step-start`, one `tool-<name>` part per call (input, output or
 * error, the user's approval or denial), files, and Lathe's facts as data parts (`data-patch`,
 * `data-compaction`, `data-agent`, `data-subtask`).
 *
 * @example
 * ```ts
 * import { createAgent, toUIMessages } from "@lathe/core";
 * declare const agent: ReturnType<typeof createAgent>;
 * const messages = toUIMessages(await agent.sessions.messages("ses_1"), { pending: await agent.permissions.pending("ses_1") });
 * ```
 */
export function toUIMessages(messages: readonly MessageWithParts[], options: ToUIMessagesOptions = {}): LatheUIMessage[] {
  const waiting = new Map((options.pending ?? []).flatMap((request) => (request.tool ? [[request.tool.callID, request.id] as const] : [])));
  return messages.map(({ info, parts }) => ({
    id: info.id,
    role: info.role,
    metadata: messageMetadata(info),
    parts: parts.flatMap((part) => uiParts(part, waiting)),
  }));
}

function uiParts(part: Part, waiting: ReadonlyMap<string, string>): UIPart[] {
  switch (part.type) {
    case "step-start":
      return [{ type: "step-start" }];
    case "text":
      return [{ type: "text", text: part.text, state: "done", ...providerMetadata(part.providerMetadata) }];
    case "reasoning":
      return [{ type: "reasoning", id: part.id, text: part.text, state: "done", ...providerMetadata(part.providerMetadata) }];
    case "file":
      return [{ type: "file", mediaType: part.mime, url: part.url, ...(part.filename !== undefined ? { filename: part.filename } : {}) }];
    case "tool":
      return [toolUIPart(part, waiting.get(part.callID))];
    case "step-finish":
      return [];
    default: {
      const data = dataPartOf(part);
      return data ? [data] : [];
    }
  }
}

/** A tool call as the UI shows it; `waitingApproval` is the id of a request it waits on. */
export function toolUIPart(part: ToolPart, waitingApproval?: string): UIPart {
  const base = { type: `tool-${part.tool}` as const, toolCallId: part.callID };
  const state = part.state;
  const approval = approvalOf(state);
  switch (state.status) {
    case "pending":
      return { ...base, state: "input-streaming", input: state.input };
    case "running":
      if (waitingApproval !== undefined) return { ...base, state: "approval-requested", input: state.input, approval: { id: waitingApproval } };
      if (approval) return { ...base, state: "approval-responded", input: state.input, approval: uiApproval(approval) };
      return { ...base, state: "input-available", input: state.input };
    case "completed":
      return {
        ...base,
        state: "output-available",
        input: state.input,
        output: toolOutput(state),
        ...(approval?.approved ? { approval: { ...uiApproval(approval), approved: true } } : {}),
      };
    case "error":
      if (approval && !approval.approved) return { ...base, state: "output-denied", input: state.input, approval: { ...uiApproval(approval), approved: false } };
      return {
        ...base,
        state: "output-error",
        input: state.input,
        errorText: state.error,
        ...(approval?.approved ? { approval: { ...uiApproval(approval), approved: true } } : {}),
      };
  }
}

function providerMetadata(metadata: Record<string, Record<string, unknown>> | undefined): { providerMetadata?: ProviderMetadata } {
  return metadata ? { providerMetadata: metadata as ProviderMetadata } : {};
}
