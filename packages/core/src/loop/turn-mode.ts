import type { Session } from "@lathe/message";
import type { PermissionMode } from "@lathe/permission";
import type { AgentRuntime } from "./runtime.js";

/** The mode a turn runs under: the prompt's, else the session's, else the agent's, else `default`. */
export function activeMode(rt: AgentRuntime, session: Session, requested?: PermissionMode): PermissionMode {
  return requested ?? session.mode ?? rt.options.mode ?? "default";
}

/** Puts the session's asks under `mode` and tells the host (with the user message that records it, when a turn starts). */
export function enterMode(rt: AgentRuntime, sessionID: string, mode: PermissionMode, messageID?: string): void {
  rt.permissions.setMode(sessionID, mode);
  rt.emit({ type: "session.mode", sessionID, mode, ...(messageID !== undefined ? { messageID } : {}) });
}

/**
 * The prompt-level instructions of a turn: the prompt's own, plus — in `plan` mode — the plan agent's
 * instructions, so the model plans instead of trying edits its rules will deny.
 */
export function turnInstructions(rt: AgentRuntime, sessionID: string, system: string | undefined): string | undefined {
  if (rt.permissions.modeOf(sessionID) !== "plan") return system;
  const plan = rt.agents.get("plan").prompt;
  return [plan, system].filter((s) => s !== undefined && s.trim() !== "").join("\n\n") || undefined;
}
