import { createId } from "@lathe/message";
import type { AgentEvent } from "./events.js";
import type { ApproveFn, PermissionReply, PermissionRequest } from "./options.js";

/** What a tool call asks. */
export interface AskInput {
  sessionID: string;
  permission: string;
  patterns: string[];
  always: string[];
  metadata: Record<string, unknown>;
  tool?: { messageID: string; callID: string };
  signal: AbortSignal;
}

/** The user rejected the request: the turn stops. */
export class PermissionRejectedError extends Error {
  override readonly name = "PermissionRejectedError";
  constructor(readonly request: PermissionRequest) {
    super(`The user rejected permission "${request.permission}" for ${request.patterns.join(", ")}.`);
  }
}

/** The user rejected the request with feedback: the model reads it as the tool's result and goes on. */
export class PermissionCorrectedError extends Error {
  override readonly name = "PermissionCorrectedError";
  constructor(
    readonly request: PermissionRequest,
    readonly feedback: string,
  ) {
    super(`The user rejected this call with feedback: ${feedback}`);
  }
}

/** The agent's view of permissions: asks and resolves, or throws one of the errors above. */
export interface PermissionGate {
  ask(input: AskInput): Promise<void>;
}

/**
 * The approval path before the rule engine: every ask goes to the host's `approve` callback;
 * `always` answers are remembered per session for the exact patterns approved. Without a callback
 * every ask is allowed (the host chose not to gate).
 */
export class ApproveCallbackGate implements PermissionGate {
  private readonly approvedAlways = new Map<string, Set<string>>();

  constructor(
    private readonly approve: ApproveFn | undefined,
    private readonly emit: (event: AgentEvent) => void,
  ) {}

  async ask(input: AskInput): Promise<void> {
    if (!this.approve) return;
    const approved = this.approvedAlways.get(input.sessionID);
    const key = (pattern: string) => `${input.permission}\u0000${pattern}`;
    if (approved && input.patterns.every((p) => approved.has(key(p)))) return;
    const request: PermissionRequest = {
      id: createId("permission"),
      sessionID: input.sessionID,
      permission: input.permission,
      patterns: input.patterns,
      always: input.always,
      metadata: input.metadata,
      ...(input.tool ? { tool: input.tool } : {}),
      time: { created: Date.now() },
    };
    this.emit({ type: "permission.asked", sessionID: input.sessionID, request });
    const reply: PermissionReply = await this.approve(request, { signal: input.signal });
    const kind = typeof reply === "object" ? "reject" : reply;
    this.emit({
      type: "permission.replied",
      sessionID: input.sessionID,
      requestID: request.id,
      reply: kind,
      ...(typeof reply === "object" ? { feedback: reply.reject } : {}),
    });
    if (typeof reply === "object") throw new PermissionCorrectedError(request, reply.reject);
    if (reply === "reject") throw new PermissionRejectedError(request);
    if (reply === "always") {
      const set = approved ?? new Set<string>();
      for (const pattern of [...input.patterns, ...input.always]) set.add(key(pattern));
      this.approvedAlways.set(input.sessionID, set);
    }
  }
}
