import type { ToolState, ToolStateError } from "@lathe/message";

/**
 * The error state a tool call ends in when it fails, is cancelled or was interrupted: its input kept,
 * its start time and live metadata kept when it was running.
 */
export function erroredState(state: ToolState, error: string, now = Date.now()): ToolStateError {
  const running = state.status === "running" ? state : undefined;
  return {
    status: "error",
    input: state.input,
    ...(state.status !== "pending" && state.modelInput ? { modelInput: state.modelInput } : {}),
    error,
    ...(running?.metadata ? { metadata: running.metadata } : {}),
    time: { start: running?.time.start ?? now, end: now },
  };
}

/** `ToolContext.state` over one session's state map: the value under `key`, made by `init` the first time. */
export function stateAccessor(map: Map<string, unknown>): <T>(key: string, init: () => T) => T {
  return <T>(key: string, init: () => T): T => {
    if (!map.has(key)) map.set(key, init());
    return map.get(key) as T;
  };
}
