import type { AssistantMessage, Part } from "@lathe/message";
import type { AgentEvent } from "../events.js";
import type { PromptOptions } from "../options.js";
import { assistantText } from "./text-stream.js";

/**
 * What a run resolves to: the final assistant message with its parts, and — for a prompt given an
 * `output` schema — the validated answer, typed as the schema's type (absent when no answer
 * validated: `info.error` then says why, an `OutputValidationError` when the answers did not match).
 */
export interface RunResult<OUTPUT = unknown> {
  info: AssistantMessage;
  parts: Part[];
  /** The structured answer (`info.output`, typed); see {@link PromptOptions.output}. */
  output?: OUTPUT;
}

/** Where a run's prompt is stored; see {@link Run.stored}. */
export interface StoredPrompt {
  /** The id of the prompt's user message (a new or steered prompt). */
  messageID?: string;
  /** The id of its entry on `Session.queue` (a queued prompt, until its turn starts). */
  queuedID?: string;
}

/**
 * One prompt being answered. Iterate it for this run's events, in order, as they happen; await it
 * for the final assistant message. Both can be done, in either order: events are kept from the
 * start, so a late iterator still sees all of them.
 *
 * A run resolves even when the model or a tool fails, the model sends hostile input, storage fails
 * mid-turn or the run is aborted — the message then says so in `finish` and `error` (a turn storage
 * could not keep is finished by the next prompt's crash repair). It rejects only when it could not
 * start (busy session, unknown session, storage failing before the turn begins), or — for a prompt
 * sent while the session was busy (`whileBusy`) — when it was dropped before a turn answered it
 * (`PromptDroppedError`) or the agent closed first (`AgentClosedError`; the message stays stored).
 *
 * A prompt steered into a running turn resolves with that turn's last assistant message, like the
 * run of the prompt that started the turn; its iterator receives the session's events from the moment
 * it was sent.
 */
export class Run<OUTPUT = unknown> implements AsyncIterable<AgentEvent>, PromiseLike<RunResult<OUTPUT>> {
  /** The session this run answers in. */
  readonly sessionID: string;
  private readonly events: AgentEvent[] = [];
  private readonly waiters = new Set<() => void>();
  private done = false;
  private readonly result: Promise<RunResult<OUTPUT>>;
  private readonly controller: AbortController;
  /**
   * Resolves once the prompt's user message is stored — for a steered or queued prompt
   * (`whileBusy`), as soon as it is safe from a crash, long before it is answered: a host that
   * acknowledges messages to its users can wait for this. It resolves with where the prompt is
   * stored: the user message's `messageID`, or — for a queued prompt, whose message is made when its
   * turn starts — its `queuedID` on `Session.queue`. Rejects when the run fails before storing it
   * (the run rejects with the same error). A run that stores no message of its own (a resume, a
   * compaction) resolves it, empty, when it ends.
   */
  readonly stored: Promise<StoredPrompt>;
  private storedSettle!: { resolve: (stored: StoredPrompt) => void; reject: (error: unknown) => void };

  /** @internal */
  constructor(sessionID: string, controller: AbortController, body: (run: Run<OUTPUT>) => Promise<RunResult<OUTPUT>>) {
    this.sessionID = sessionID;
    this.controller = controller;
    this.stored = new Promise<StoredPrompt>((resolve, reject) => (this.storedSettle = { resolve, reject }));
    this.stored.catch(() => {});
    this.result = body(this).finally(() => {
      this.done = true;
      this.wake();
    });
    this.result.then(
      () => this.storedSettle.resolve({}),
      (error: unknown) => this.storedSettle.reject(error),
    );
    // Awaiting is optional for hosts that only iterate; the rejection is still seen by `then`.
    this.result.catch(() => {});
  }

  /** @internal The run's message is stored (the first call counts). */
  markStored(stored: StoredPrompt): void {
    this.storedSettle.resolve(stored);
  }

  /** @internal Delivers an event to this run's iterators. */
  push(event: AgentEvent): void {
    this.events.push(event);
    this.wake();
  }

  /** Stops the run: the model request and running tools are aborted, and the run resolves as aborted. */
  abort(reason?: string): void {
    this.controller.abort(reason ?? "aborted");
  }

  /**
   * The assistant's text as it streams: the text deltas of this run's session only, like the AI
   * SDK's `textStream` — no reasoning, no tool input, no subagent or summary text. Each access is a
   * new iterator over the run from its start. It ends when the run ends and throws when the run
   * rejects; a model that fails ends it quietly, so check `info.error` on the awaited result.
   *
   * @example
   * ```ts
   * for await (const text of run.textStream) process.stdout.write(text);
   * const { info } = await run;
   * if (info.error) console.error(info.error.message);
   * ```
   */
  get textStream(): AsyncIterable<string> {
    return assistantText(this, this.sessionID);
  }

  /** Whether the run has been asked to stop. */
  get aborted(): boolean {
    return this.controller.signal.aborted;
  }

  then<R1 = RunResult<OUTPUT>, R2 = never>(
    onfulfilled?: ((value: RunResult<OUTPUT>) => R1 | PromiseLike<R1>) | null,
    onrejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    return this.result.then(onfulfilled, onrejected);
  }

  /** Like `Promise.finally`. */
  finally(onfinally?: (() => void) | null): Promise<RunResult<OUTPUT>> {
    return this.result.finally(onfinally);
  }

  /** Like `Promise.catch`. */
  catch<R = never>(onrejected?: ((reason: unknown) => R | PromiseLike<R>) | null): Promise<RunResult<OUTPUT> | R> {
    return this.result.catch(onrejected);
  }

  async *[Symbol.asyncIterator](): AsyncIterator<AgentEvent> {
    let index = 0;
    while (true) {
      while (index < this.events.length) yield this.events[index++]!;
      if (this.done) break;
      await new Promise<void>((resolve) => this.waiters.add(resolve));
    }
    // Surface a failure to iterating hosts too, once every event was delivered.
    await this.result;
  }

  private wake(): void {
    if (this.waiters.size === 0) return;
    const waiters = [...this.waiters];
    this.waiters.clear();
    for (const wake of waiters) wake();
  }
}
