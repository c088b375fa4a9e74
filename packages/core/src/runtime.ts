import type { LanguageModel } from "ai";
import type { ModelRef, Session } from "@lathe/message";
import type { Storage } from "@lathe/storage";
import type { Tool } from "@lathe/tools";
import type { AgentEvent } from "./events.js";
import type { AgentOptions, ModelPrice } from "./options.js";
import type { PermissionGate } from "./permission-gate.js";

/** What the loop shares with the agent that owns it: one per agent instance, never global. */
export interface AgentRuntime {
  readonly options: AgentOptions;
  readonly model: LanguageModel;
  readonly modelRef: ModelRef;
  readonly cwd: string;
  readonly storage: Storage;
  readonly tools: ReadonlyMap<string, Tool>;
  readonly gate: PermissionGate;
  /** Unique owner name for session leases. */
  readonly leaseOwner: string;
  emit(event: AgentEvent): void;
  /** Per-session state tools keep on the agent. */
  sessionState(sessionID: string): Map<string, unknown>;
  price(ref: ModelRef): ModelPrice | undefined;
  /** Stores a session and announces it. */
  saveSession(session: Session): Promise<void>;
}
