import type { SessionMode, SessionModeState } from "@agentclientprotocol/sdk";
import { PermissionMode } from "@lathe/core";

/** Lathe's permission modes as the modes an editor offers in its mode picker. */
export const ACP_MODES: SessionMode[] = [
  { id: "default", name: "Default", description: "Asks before edits and commands as the rules say." },
  { id: "acceptEdits", name: "Accept edits", description: "File edits in the workspace go ahead; commands still ask." },
  { id: "plan", name: "Plan", description: "Read-only: the agent plans and changes nothing." },
  { id: "bypass", name: "Bypass", description: "Nothing is asked; deny rules still hold." },
];

/** The mode state of a session whose mode is `current` (absent: the agent's default). */
export function modeState(current: string | undefined): SessionModeState {
  return { currentModeId: current ?? "default", availableModes: ACP_MODES };
}

/** Whether an editor's mode id names one of Lathe's modes. */
export function isMode(id: string): id is PermissionMode {
  return PermissionMode.safeParse(id).success;
}
