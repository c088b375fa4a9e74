import type { PermissionOption, RequestPermissionResponse, ToolCallUpdate } from "@agentclientprotocol/sdk";
import type { PermissionReply, PermissionRequest } from "@lathe/core";
import { diffContent, toolKind } from "./tool-calls.js";

/** The choices an editor offers for every ask; `always` is recorded as Lathe's own "always" answer. */
export function permissionOptions(request: PermissionRequest): PermissionOption[] {
  const always = request.always.length > 0 ? request.always : request.patterns;
  return [
    { optionId: "once", name: "Allow once", kind: "allow_once" },
    { optionId: "always", name: `Always allow ${request.permission} ${always.join(", ")}`.trim(), kind: "allow_always" },
    { optionId: "reject", name: "Reject", kind: "reject_once" },
  ];
}

/**
 * The tool call an ask is about, as the editor shows it beside the choices. Its kind comes from the
 * permission asked (`edit`, `bash`, `read`, `webfetch`… name the tools that ask them), so an ask
 * costs no read of the session's history.
 */
export function permissionToolCall(request: PermissionRequest, cwd: string): ToolCallUpdate {
  const what = request.patterns.join(", ");
  const diffs = diffContent(request.metadata, cwd);
  const command = typeof request.metadata.command === "string" ? request.metadata.command : undefined;
  return {
    toolCallId: request.tool?.callID ?? request.id,
    title: request.opaque ? `${request.permission} (could not be analysed): ${what}` : `${request.permission}: ${what}`,
    kind: toolKind(request.permission),
    status: "pending",
    ...(diffs.length > 0 ? { content: diffs } : command ? { content: [{ type: "content", content: { type: "text", text: command } }] } : {}),
    rawInput: { permission: request.permission, patterns: request.patterns, always: request.always },
  };
}

/** The editor's choice as Lathe's answer; a cancelled ask (the turn was stopped) is a rejection. */
export function permissionReply(response: RequestPermissionResponse): PermissionReply {
  const outcome = response.outcome;
  if (outcome.outcome !== "selected") return "reject";
  if (outcome.optionId === "once") return "once";
  if (outcome.optionId === "always") return "always";
  return "reject";
}
