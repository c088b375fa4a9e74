import { createId, type QueuedPrompt } from "@lathe/message";
import { AgentClosedError, InvalidInputError, NothingToResumeError, PromptDroppedError, SessionNotFoundError } from "../errors.js";
import type { AgentEvent } from "../events.js";
import { runTurn, type TurnRequest } from "../loop/prompt-loop.js";
import { Run, type RunResult } from "../loop/run.js";
import type { AgentRuntime } from "../loop/runtime.js";
import type { SteerEntry } from "../loop/steering.js";
import { DEFAULT_AGENT } from "../loop/turn-common.js";
import { buildUserMessage, dequeue } from "../loop/user-message.js";
import type { PromptInput, PromptOptions } from "../options.js";
import { commandRequest } from "./command-runner.js";

/** A run waiting for, or holding, its session's turn. */
interface Job {
  run: Run;
  controller: AbortController;
  /** Lets the job's turn start. */
  begin: () => void;
  /** Takes a job that has not started out of the queue (its run rejects with `error`). */
  cancel: (error: unknown) => void;
}

/** A steered message's run, settled by the turn that answers it. */
interface Steer {
  run: Run;
  entry: SteerEntry;
  settle: { resolve: (result: RunResult) => void; reject: (error: unknown) => void };
}

/**
 * What one session has in this agent: the job whose turn runs, the jobs queued after it, the steered
 * messages waiting for an answer, and how many steered messages are still being stored.
 */
interface Lane {
  current: Job | undefined;
  queue: Job[];
  steers: Steer[];
  storing: number;
  /** Whether a turn reported the session busy: it is reported idle when it has nothing left. */
  busy: boolean;
}

/**
 * The runs of one agent, one turn at a time per session: the running one with its abort controller,
 * the prompts queued after it (`whileBusy: "queue"`), the messages steered into it
 * (`whileBusy: "steer"`), and which subagent session runs under which parent, so a child's events
 * also reach its parents' runs.
 */
export class Runs {
  private readonly lanes = new Map<string, Lane>();
  /** Set by {@link abortAll}: nothing more starts. */
  private closing = false;
  /** Child session → parent session, while a subagent task runs. */
  readonly parents = new Map<string, string>();

  /** Whether the session runs a turn here, or has prompts waiting for one. */
  has(sessionID: string): boolean {
    return this.lanes.has(sessionID);
  }

  /** The session's running run, if any. */
  get(sessionID: string): Run | undefined {
    return this.lanes.get(sessionID)?.current?.run;
  }

  /**
   * Starts a turn, or queues it after the session's running turn when there is one (`queued`);
   * `emit` reports the `idle` status once the session has nothing left to run. `request` may be
   * worked out first, inside the run (a command's expansion); a failure there rejects the run.
   */
  start(
    rt: AgentRuntime,
    sessionID: string,
    request: TurnRequest | ((signal: AbortSignal) => Promise<TurnRequest>),
    options: PromptOptions,
    emit: (event: AgentEvent) => void,
  ): Run {
    return this.job(rt, sessionID, options, emit, async (signal, self, onBusy) => {
      const turn = typeof request === "function" ? await request(signal) : request;
      const noted: TurnRequest = turn.kind === "prompt" ? { ...turn, onStored: (messageID) => self.markStored({ messageID }) } : turn;
      return turn.kind === "resume" ? this.resume(rt, sessionID, noted, signal, onBusy) : runTurn(rt, sessionID, noted, signal, onBusy);
    });
  }

  /**
   * Queues a prompt — or a command, expanded when its turn comes — after the session's running turn:
   * stored on the session's queue at once (the run's `stored` resolves then), run in its own turn when
   * those before it are done. Aborted before its turn, it leaves the queue and the run rejects with
   * `PromptDroppedError`; a command whose expansion fails leaves the queue too.
   */
  enqueue(
    rt: AgentRuntime,
    sessionID: string,
    input: PromptInput,
    options: PromptOptions,
    emit: (event: AgentEvent) => void,
    command?: QueuedCommand,
  ): Run {
    const entry: QueuedPrompt = {
      id: createId("queued"),
      time: Date.now(),
      input: typeof input === "string" ? [{ type: "text", text: input }] : input,
      options: storable(options),
      ...(command ? { command } : {}),
    };
    // The updater writes one session at a time, in call order: the stored queue keeps the calls' order.
    const written = rt.updater
      .update(sessionID, (session) => {
        session.queue = [...(session.queue ?? []), entry];
      })
      .then((session) => {
        if (!session) throw new SessionNotFoundError(sessionID);
        run.markStored({ queuedID: entry.id });
      });
    const run = this.job(
      rt,
      sessionID,
      options,
      emit,
      async (signal, self, onBusy) => runTurn(rt, sessionID, { ...(await queuedRequest(rt, sessionID, entry, options, signal)), onStored: (messageID) => self.markStored({ messageID }) }, signal, onBusy),
      { ready: written, drop: () => dropQueued(rt, sessionID, entry.id) },
    );
    return run;
  }

  /**
   * Steers a message into the session's running turn: stored at once (the run's `stored` resolves
   * then), taken by the turn before its next request; the run streams the session's events from its
   * start and resolves with the turn that answered it. A message no turn took (the turn ended first)
   * is answered by a turn of its own, before any queued prompt. Aborted before a turn took it, it is
   * removed from the session and the run rejects with `PromptDroppedError`; aborted after, it aborts
   * the turn answering it.
   */
  steer(
    rt: AgentRuntime,
    sessionID: string,
    input: PromptInput | ((agent: string, signal: AbortSignal) => Promise<PromptInput>),
    options: PromptOptions,
    emit: (event: AgentEvent) => void,
  ): Run {
    const lane = this.lane(sessionID);
    const controller = linkedController(options.signal);
    lane.storing++;
    return new Run(sessionID, controller, async (self) => {
      let steer: Steer;
      const settled = new Promise<RunResult>((resolve, reject) => {
        steer = { run: self, entry: undefined as unknown as SteerEntry, settle: { resolve, reject } };
      });
      lane.steers.push(steer!);
      try {
        // Read (its `@file` references, a command's shell blocks) under the rules of the agent it joins.
        const agent = rt.steering.agentOf(sessionID) ?? DEFAULT_AGENT;
        const text = typeof input === "function" ? await input(agent, controller.signal) : input;
        if (controller.signal.aborted) throw new PromptDroppedError(sessionID, controller.signal.reason);
        if (options.messageID !== undefined && (await rt.storage.getMessage(sessionID, options.messageID))) {
          throw new InvalidInputError(`The session already has a message ${options.messageID}: a steered message is stored once.`);
        }
        const { user, hookError } = await buildUserMessage(rt, sessionID, agent, text, options, controller.signal, options.messageID !== undefined ? { id: options.messageID } : {});
        if (hookError !== undefined) throw hookError;
        user.info.steered = true;
        if (controller.signal.aborted) throw new PromptDroppedError(sessionID, controller.signal.reason);
        await rt.updater.touch(sessionID, { messages: [user.info], parts: user.parts });
        self.markStored({ messageID: user.info.id });
        rt.emit({ type: "message.updated", sessionID, message: structuredClone(user.info) });
        for (const part of user.parts) rt.emit({ type: "message.part.updated", sessionID, part: { ...part } });
        steer!.entry = rt.steering.add(sessionID, user);
      } catch (error) {
        lane.steers.splice(lane.steers.indexOf(steer!), 1);
        throw error;
      } finally {
        lane.storing--;
      }
      const aborted = () => {
        if (rt.steering.remove(sessionID, steer.entry)) {
          // Not taken yet: the message leaves the session, and nothing answers it.
          lane.steers.splice(lane.steers.indexOf(steer), 1);
          steer.settle.reject(new PromptDroppedError(sessionID, controller.signal.reason));
          rt.storage.write({ removeMessages: [{ sessionID, messageID: steer.entry.message.info.id }] }).catch(() => {});
          this.pump(rt, sessionID, emit);
        } else if (steer.entry.taken) lane.current?.controller.abort(controller.signal.reason);
      };
      if (controller.signal.aborted) aborted();
      else controller.signal.addEventListener("abort", aborted, { once: true });
      // The turn may have ended while the message was being stored: then it gets a turn of its own.
      this.pump(rt, sessionID, emit);
      return settled;
    });
  }

  /** Aborts the session's running turn, if any (queued prompts stay queued). Returns whether one was running. */
  abort(sessionID: string, reason: string): boolean {
    const current = this.lanes.get(sessionID)?.current;
    if (!current) return false;
    current.controller.abort(reason);
    return true;
  }

  /** Hands an event to the runs of its session (the running turn's and its steered messages') and of every session above it. */
  deliver(event: AgentEvent): void {
    for (let id: string | undefined = event.sessionID; id !== undefined; id = this.parents.get(id)) {
      const lane = this.lanes.get(id);
      if (!lane) continue;
      lane.current?.run.push(event);
      for (const steer of lane.steers) steer.run.push(event);
    }
  }

  /**
   * Aborts every running turn and waits for them to settle. Queued prompts and steered messages no
   * turn took stay stored (`agent.resume` answers them later); their runs reject with `AgentClosedError`.
   */
  async abortAll(reason: string): Promise<void> {
    this.closing = true;
    const running: Run[] = [];
    for (const lane of this.lanes.values()) {
      for (const job of lane.queue.splice(0)) job.cancel(new AgentClosedError());
      for (const steer of lane.steers) if (!steer.entry?.taken) steer.settle.reject(new AgentClosedError());
      if (lane.current) {
        lane.current.controller.abort(reason);
        running.push(lane.current.run);
      }
    }
    await Promise.allSettled(running.map((run) => run.then(() => undefined)));
  }

  private lane(sessionID: string): Lane {
    let lane = this.lanes.get(sessionID);
    if (!lane) this.lanes.set(sessionID, (lane = { current: undefined, queue: [], steers: [], storing: 0, busy: false }));
    return lane;
  }

  /**
   * A run that takes the session's turn when the session has none, else waits in its queue. `ready`
   * is what must succeed before it runs (its prompt stored: a failure rejects the run and leaves the
   * queue); `drop` is how a waiting job that is aborted removes what it stored.
   */
  private job(
    rt: AgentRuntime,
    sessionID: string,
    options: PromptOptions,
    emit: (event: AgentEvent) => void,
    work: (signal: AbortSignal, self: Run, onBusy: () => void) => Promise<RunResult>,
    { ready, drop }: { ready?: Promise<void>; drop?: () => Promise<void> } = {},
  ): Run {
    const lane = this.lane(sessionID);
    const controller = linkedController(options.signal);
    return new Run(sessionID, controller, async (self) => {
      const turn = new Promise<void>((begin, cancel) => {
        const job: Job = { run: self, controller, begin, cancel };
        if (lane.current === undefined && lane.queue.length === 0 && !rt.steering.has(sessionID)) {
          lane.current = job;
          begin();
          return;
        }
        lane.queue.push(job);
        controller.signal.addEventListener(
          "abort",
          () => {
            const at = lane.queue.indexOf(job);
            if (at < 0) return;
            lane.queue.splice(at, 1);
            cancel(new PromptDroppedError(sessionID, controller.signal.reason));
            void drop?.().catch(() => {});
          },
          { once: true },
        );
      });
      try {
        await Promise.all([turn, ready]);
      } catch (error) {
        // Never run: out of the queue, and if its turn had come, the next one's.
        const at = lane.queue.findIndex((job) => job.run === self);
        if (at >= 0) lane.queue.splice(at, 1);
        if (lane.current?.run === self) {
          lane.current = undefined;
          this.pump(rt, sessionID, emit);
        }
        throw error;
      }
      const job = lane.current!;
      try {
        return await work(controller.signal, self, () => (lane.busy = true));
      } finally {
        this.finished(rt, sessionID, job, emit);
      }
    });
  }

  /** A turn ended: its steered messages are answered by it, and the session's next turn starts. */
  private finished(rt: AgentRuntime, sessionID: string, job: Job, emit: (event: AgentEvent) => void): void {
    const lane = this.lane(sessionID);
    const taken = lane.steers.filter((steer) => steer.entry?.taken);
    lane.steers = lane.steers.filter((steer) => !taken.includes(steer));
    job.run.then(
      (result) => taken.forEach((steer) => steer.settle.resolve(result)),
      (error: unknown) => taken.forEach((steer) => steer.settle.reject(error)),
    );
    lane.current = undefined;
    this.pump(rt, sessionID, emit, job);
  }

  /**
   * Starts the session's next turn when none runs: one answering steered messages no turn took,
   * else the first queued prompt. A session with nothing left is reported idle.
   */
  private pump(rt: AgentRuntime, sessionID: string, emit: (event: AgentEvent) => void, ended?: Job): void {
    const lane = this.lanes.get(sessionID);
    if (!lane || lane.current) return;
    if (this.closing) {
      rt.steering.drain(sessionID);
      if (lane.storing === 0) this.lanes.delete(sessionID);
      return;
    }
    if (rt.steering.has(sessionID)) {
      // Stored and never answered: one turn (a resume) answers the newest and those before it, ahead
      // of the queued prompts, which were sent after them. Their runs settle with it.
      for (const entry of rt.steering.drain(sessionID)) entry.taken = true;
      const resumed = this.job(rt, sessionID, {}, emit, (signal, _self, onBusy) => runTurn(rt, sessionID, { kind: "resume", options: {} }, signal, onBusy));
      resumed.catch(() => {});
      // `job` queued it last (or started it, with nothing queued): it goes first.
      if (lane.current === undefined) {
        lane.queue.unshift(lane.queue.pop()!);
        this.next(lane);
      }
      return;
    }
    if (lane.queue.length > 0) {
      this.next(lane);
      return;
    }
    if (lane.storing > 0 || lane.steers.length > 0) return;
    this.lanes.delete(sessionID);
    if (!lane.busy) return;
    // The session is left first, so a listener may start the next prompt from this event; the run's
    // own iterators still receive it as their last event.
    const idle: AgentEvent = { type: "session.status", sessionID, status: { type: "idle" } };
    ended?.run.push(idle);
    emit(idle);
  }

  private next(lane: Lane): void {
    const job = lane.queue.shift();
    if (!job) return;
    lane.current = job;
    job.begin();
  }

  /**
   * A resume: the turn the last process left unfinished, then the prompts it left queued on the
   * session (each in its own turn, in order); resolves with the last turn. Prompts queued here
   * meanwhile are not its to answer: they have runs of their own.
   */
  private async resume(rt: AgentRuntime, sessionID: string, request: TurnRequest, signal: AbortSignal, onBusy: () => void): Promise<RunResult> {
    const left = (await rt.storage.getSession(sessionID))?.queue ?? [];
    let result: RunResult | undefined;
    try {
      result = await runTurn(rt, sessionID, request, signal, onBusy);
    } catch (error) {
      if (!(error instanceof NothingToResumeError) || left.length === 0) throw error;
    }
    for (const entry of left) {
      if (signal.aborted) break;
      const options: PromptOptions = { ...entry.options, ...(request.options.model ? { model: request.options.model } : {}) };
      try {
        result = await runTurn(rt, sessionID, await queuedRequest(rt, sessionID, entry, options, signal), signal, onBusy);
      } catch (error) {
        // Answered or dropped elsewhere since it was read: nothing to do for it.
        if (!(error instanceof PromptDroppedError)) throw error;
      }
    }
    if (!result) throw new NothingToResumeError(sessionID);
    return result;
  }
}

/** A command queued on a session: expanded when its turn comes. */
export type QueuedCommand = NonNullable<QueuedPrompt["command"]>;

/**
 * The turn a queue entry asks for: its prompt, or its command expanded now (the shell blocks run
 * when the turn comes, not when it was queued). A command that cannot be expanded (denied, renamed
 * since) leaves the queue, with its error, rather than failing every resume after.
 */
async function queuedRequest(
  rt: AgentRuntime,
  sessionID: string,
  entry: QueuedPrompt,
  options: PromptOptions,
  signal: AbortSignal,
): Promise<TurnRequest & { kind: "prompt" }> {
  if (!entry.command) return { kind: "prompt", input: entry.input, options, queuedID: entry.id };
  try {
    const expanded = await commandRequest(rt, sessionID, entry.command.name, entry.command.args, options, signal);
    return { ...expanded, queuedID: entry.id };
  } catch (error) {
    await dropQueued(rt, sessionID, entry.id).catch(() => {});
    throw error;
  }
}

/** Takes an entry off the session's stored queue. */
async function dropQueued(rt: AgentRuntime, sessionID: string, entryID: string): Promise<void> {
  await rt.updater.update(sessionID, (session) => dequeue(session, entryID));
}

/** The options of a queued prompt that survive in storage. */
function storable(options: PromptOptions): QueuedPrompt["options"] {
  const { agent, system, maxSteps, limits, mode } = options;
  return {
    ...(agent !== undefined ? { agent } : {}),
    ...(system !== undefined ? { system } : {}),
    ...(maxSteps !== undefined ? { maxSteps } : {}),
    ...(limits !== undefined ? { limits } : {}),
    ...(mode !== undefined ? { mode } : {}),
  };
}

/** An abort controller that the host's signal also aborts. */
function linkedController(signal: AbortSignal | undefined): AbortController {
  const controller = new AbortController();
  if (signal) {
    if (signal.aborted) controller.abort(signal.reason);
    else signal.addEventListener("abort", () => controller.abort(signal.reason), { once: true });
  }
  return controller;
}
