import type { AgentEvent } from "../events.js";
import { runTurn, type TurnRequest } from "../loop/prompt-loop.js";
import { Run } from "../loop/run.js";
import type { AgentRuntime } from "../loop/runtime.js";
import type { PromptOptions } from "../options.js";

/**
 * The runs of one agent: at most one per session, each with its abort controller, and which
 * subagent session runs under which parent, so a child's events also reach its parents' runs.
 */
export class Runs {
  private readonly active = new Map<string, { run: Run; controller: AbortController }>();
  /** Child session → parent session, while a subagent task runs. */
  readonly parents = new Map<string, string>();

  has(sessionID: string): boolean {
    return this.active.has(sessionID);
  }

  /** The session's running run, if any. */
  get(sessionID: string): Run | undefined {
    return this.active.get(sessionID)?.run;
  }

  /**
   * Starts a turn; `emit` reports the `idle` status once the run is gone (when it ever got the
   * session). `request` may be worked out first, inside the run (a command's expansion): the session
   * counts as busy from the start, and a failure there rejects the run.
   */
  start(
    rt: AgentRuntime,
    sessionID: string,
    request: TurnRequest | ((signal: AbortSignal) => Promise<TurnRequest>),
    options: PromptOptions,
    emit: (event: AgentEvent) => void,
  ): Run {
    const controller = new AbortController();
    if (options.signal) {
      if (options.signal.aborted) controller.abort(options.signal.reason);
      else options.signal.addEventListener("abort", () => controller.abort(options.signal!.reason), { once: true });
    }
    return new Run(sessionID, controller, (self) => {
      this.active.set(sessionID, { run: self, controller });
      let busy = false;
      const ready = typeof request === "function" ? request(controller.signal) : Promise.resolve(request);
      return ready.then((turn) => runTurn(rt, sessionID, turn, controller.signal, () => (busy = true))).finally(() => {
        this.active.delete(sessionID);
        if (!busy) return;
        // The run is gone first, so a listener may start the next prompt from this event; the run's
        // own iterators still receive it as their last event.
        const idle: AgentEvent = { type: "session.status", sessionID, status: { type: "idle" } };
        self.push(idle);
        emit(idle);
      });
    });
  }

  /** Aborts the session's run, if any. Returns whether one was running. */
  abort(sessionID: string, reason: string): boolean {
    const active = this.active.get(sessionID);
    if (!active) return false;
    active.controller.abort(reason);
    return true;
  }

  /** Hands an event to the run of its session and to the runs of every session above it. */
  deliver(event: AgentEvent): void {
    for (let id: string | undefined = event.sessionID; id !== undefined; id = this.parents.get(id)) {
      this.active.get(id)?.run.push(event);
    }
  }

  /** Aborts every run and waits for them to settle. */
  async abortAll(reason: string): Promise<void> {
    const running = [...this.active.values()];
    for (const { controller } of running) controller.abort(reason);
    await Promise.allSettled(running.map(({ run }) => run.then(() => undefined)));
  }
}
