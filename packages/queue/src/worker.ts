import { NothingToResumeError, SessionBusyError, type Agent, type AgentEvent, type HandOffReply, type Run, type RunResult } from "@lathe/core";
import type { Storage } from "@lathe/storage";
import { PostgresStorage } from "@lathe/storage-postgres";
import type { BossJob } from "./boss.js";
import { EventForwarder } from "./event-forwarder.js";
import { FencedStorage } from "./fenced-storage.js";
import { PromptJob, TurnJob, type TurnOutcome } from "./jobs.js";
import { giveUp } from "./give-up.js";
import type { TurnQueue } from "./queue.js";
import { abortChannel, steerChannel } from "./queue.js";
import { startTurn } from "./start-turn.js";

/** What a worker gives the host's agent factory: the agent must use this storage (the worker fences sessions through it). */
export interface WorkerContext {
  /** The storage the agent must be created with (`createAgent({ storage })`): PostgreSQL, the queue's schema. */
  storage: Storage;
  /** The queue's {@link TurnQueue.handOffReply}, for `createAgent({ handOffReply })`. */
  handOffReply: HandOffReply;
}

/** Builds the agent a worker runs its turns with; called once per worker. */
export type MakeAgent = (context: WorkerContext) => Agent | Promise<Agent>;

/** Options of {@link TurnQueue.work}. */
export interface WorkOptions {
  /** How many turns this worker runs at once; default 1. */
  concurrency?: number;
  /** How long a stopping worker lets its turns finish before it hands them back to the queue, in ms; default 30,000. */
  graceMs?: number;
  /** Stop gracefully on SIGTERM and SIGINT; default true. */
  handleSignals?: boolean;
  /**
   * How long a job waits for the session's lease, in ms, when a worker that died still holds it
   * (until its `leaseTtlMs` passes); default 120,000.
   */
  leaseWaitMs?: number;
}

/** A running worker. */
export interface Worker {
  /** This worker's id (pg-boss's). */
  readonly id: string;
  /** The sessions whose turns it runs now. */
  active(): string[];
  /** Stops taking jobs, lets running turns finish for `graceMs`, hands back the rest, and closes the agent and storage. */
  stop(options?: { graceMs?: number }): Promise<void>;
  /** Resolves once the worker has stopped. */
  readonly stopped: Promise<void>;
}

interface ActiveTurn {
  run: Run | undefined;
  handedBack: boolean;
  /** Runs of prompts steered into the session's turn here (their jobs, but for the job's own, completed as `steered`). */
  steers: Run[];
  /** Steered jobs this turn has looked at, so none is steered twice. */
  seen: Set<string>;
  /** The chain of looks for steered jobs: one at a time, in the order their jobs were sent. */
  sweeping: Promise<void>;
  /** Set when the turn ends or is fenced here: no more prompts are steered into it. */
  closed: boolean;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** @internal Starts a worker of `queue` (see {@link TurnQueue.work}). */
export async function startWorker(queue: TurnQueue, makeAgent: MakeAgent, options: WorkOptions): Promise<Worker> {
  if (!queue.connectionString) throw new TypeError("A worker needs the queue's connectionString (its sessions live in PostgreSQL).");
  const concurrency = options.concurrency ?? 1;
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new TypeError(`concurrency must be a positive integer, got ${options.concurrency}`);
  const storage = new FencedStorage(await PostgresStorage.open({ connectionString: queue.connectionString, schema: queue.schema }));
  const agent = await makeAgent({ storage, handOffReply: queue.handOffReply });
  const forwarder = new EventForwarder(queue.events());
  const active = new Map<string, ActiveTurn>();
  let stopping: Promise<void> | undefined;
  let resolveStopped!: () => void;
  const stopped = new Promise<void>((resolve) => (resolveStopped = resolve));

  const db = queue.boss.getDb();
  const listener = await db.listen?.(
    abortChannel(queue.schema),
    (payload) => {
      const { sessionID, reason } = JSON.parse(payload) as { sessionID: string; reason?: string };
      active.get(sessionID)?.run?.abort(reason ?? "aborted");
    },
    () => {},
  );
  // A NOTIFY missed while reconnecting is made up for: each turn looks for steered jobs when it starts.
  const steerListener = await db.listen?.(
    steerChannel(queue.schema),
    (payload) => {
      const { sessionID } = JSON.parse(payload) as { sessionID: string };
      const turn = active.get(sessionID);
      if (turn) sweep(sessionID, turn);
    },
    () => {},
  );

  /** Looks for prompts steered at the session's turn, after those already being looked for. */
  function sweep(sessionID: string, turn: ActiveTurn): Promise<void> {
    turn.sweeping = turn.sweeping.then(() => steerWaiting(sessionID, turn)).catch(() => {});
    return turn.sweeping;
  }

  /**
   * Steers the session's waiting steered jobs into its running turn, oldest first: each message is
   * stored under the id its job carries, then the job completed as `steered`. The session's job is
   * active while its turn runs, so no worker takes these jobs meanwhile (`key_strict_fifo`); one not
   * steered here — the turn ended, or was fenced — stays queued and is answered by a turn of its own.
   */
  async function steerWaiting(sessionID: string, turn: ActiveTurn): Promise<void> {
    if (turn.closed || !turn.run) return;
    const jobs = await queue.boss.findJobs(queue.name, { key: sessionID, data: { steer: {} }, queued: true });
    for (const job of jobs) {
      if (job.state !== "created" || turn.seen.has(job.id)) continue;
      turn.seen.add(job.id);
      const data = PromptJob.safeParse(job.data);
      if (!data.success || !data.data.steer || data.data.sessionID !== sessionID) continue;
      const { messageID } = data.data.steer;
      if (await storage.getMessage(sessionID, messageID)) {
        // Stored by a worker that stopped before it ended the job: the turn resumed here answers it.
        await completeSteered(job.id, messageID);
        continue;
      }
      // Checked and steered in one tick: the turn is still this job's.
      if (turn.closed || storage.isFenced(sessionID) || !agent.isBusy(sessionID)) return;
      const run = agent.prompt(sessionID, data.data.input, { whileBusy: "steer", messageID });
      turn.steers.push(run);
      run.catch(() => {});
      try {
        await run.stored;
      } catch {
        continue; // refused (a file: URL the host did not allow…): it fails again as a job of its own, and says why
      }
      // A fence may have dropped the write: the job stays queued; its own turn finds the message if it was stored.
      if (storage.isFenced(sessionID)) return;
      await completeSteered(job.id, messageID);
    }
  }

  /** Ends a steered job no worker took (it waits behind the session's running one) as steered. */
  async function completeSteered(jobID: string, messageID: string): Promise<void> {
    await queue.boss.complete(queue.name, jobID, { state: "steered", messageID, worker: workID } satisfies TurnOutcome, { includeQueued: true });
  }

  async function handle(job: BossJob): Promise<TurnOutcome> {
    const data = TurnJob.parse(job.data);
    const { sessionID } = data;
    // The last claim of a turn whose workers kept dying: end it as failed rather than run it again.
    const poisoned = job.retryCount >= queue.maxAttempts;
    try {
      const deadline = Date.now() + (options.leaseWaitMs ?? 120_000);
      for (;;) {
        // Each attempt starts afresh: nothing of a run that could not start carries over.
        const turn: ActiveTurn = { run: undefined, handedBack: false, steers: [], seen: new Set(), sweeping: Promise.resolve(), closed: false };
        active.set(sessionID, turn);
        try {
          return poisoned ? await giveUp({ queue, agent, storage, forwarder, job: data, jobID: job.id }) : await runJob(data, job.id, turn);
        } catch (error) {
          // A worker that died may still hold the session's lease until it lapses: wait for it.
          if (!(error instanceof SessionBusyError) || Date.now() > deadline || turn.handedBack) throw error;
          await sleep(250);
          // Stopping meanwhile: the job goes back as it is, for another worker.
          if (turn.handedBack) throw error;
        }
      }
    } finally {
      active.delete(sessionID);
      await forwarder.flush(sessionID).catch(() => {});
      storage.unfence(sessionID);
    }
  }

  async function runJob(data: TurnJob, jobID: string, turn: ActiveTurn): Promise<TurnOutcome> {
    const start = await startTurn(agent, storage, data, jobID, queue.replaying);
    if ("done" in start) {
      if (start.done.state === "answered" && start.done.messageID) await announceFinished(queue, storage, data.sessionID, start.done.messageID);
      return start.done;
    }
    const started = start.run;
    turn.run = started;
    const { sessionID } = data;
    let waiting: string | undefined;
    /** Leaves the turn as stored, waiting for the answer to `requestID`, and frees this worker: the answer enqueues the resume. */
    const park = async (requestID: string) => {
      waiting = requestID;
      // Steered messages being stored get stored first: the fence would drop them.
      await Promise.allSettled(turn.steers.map((steer) => steer.stored));
      storage.fence(sessionID);
      turn.closed = true;
      started.abort("waiting for approval");
      // One the turn had not taken leaves its inbox (the removal is fenced: it stays stored for the resume).
      for (const steer of turn.steers) steer.abort("waiting for approval");
    };
    const forwarded = new WeakSet<AgentEvent>();
    /** Sends a run's events to the log (each event once, though the session's runs share them) and parks the turn at its first approval. */
    const forward = async (run: Run) => {
      for await (const event of run) {
        if (forwarded.has(event)) continue;
        forwarded.add(event);
        // Once fenced, what the abort records never happened as far as storage goes: only the status is true.
        if (!storage.isFenced(sessionID) || event.type === "session.status") forwarder.push(sessionID, event);
        if (waiting === undefined && isOwnApproval(event, sessionID)) await park(event.request.id);
      }
    };
    if (start.steer) {
      // This job's own prompt, sent while the turn waits for approval: stored into it, and the turn
      // left waiting (its request already asked) for the answer, which then goes on to the message.
      const own = agent.prompt(sessionID, start.steer.input, { whileBusy: "steer", messageID: start.steer.messageID });
      own.catch(() => {});
      turn.steers.push(own);
      const request = (await agent.permissions.pending(sessionID)).find((r) => r.sessionID === sessionID && r.tool);
      if (request) await park(request.id);
    } else void sweep(sessionID, turn);
    let result: RunResult | undefined;
    try {
      await forward(started);
      result = await started;
    } catch (error) {
      // Nothing to resume, but a steered message to answer: the turn below answers it.
      if (!(error instanceof NothingToResumeError)) throw error;
      if (turn.steers.length === 0) return { state: "nothing-to-resume" };
    }
    // Steered messages the turn did not take are answered here by a turn of their own: the job stays
    // active (holding the session) until they are.
    for (let done = 0; ; done++) {
      await turn.sweeping;
      const steer = turn.steers[done];
      if (!steer) break;
      // A steered run aborted before its turn took it rejects, and its iterator with it.
      await forward(steer).catch(() => {});
      const answered = await steer.then((r) => r, () => undefined);
      if (!result && answered) result = answered;
    }
    turn.closed = true;
    if (turn.handedBack) throw new Error(`Handed back: worker stopping while session ${sessionID} ran.`);
    await forwarder.flush(sessionID);
    const worker = workID;
    if (waiting !== undefined) return { state: "waiting", requestID: waiting, worker };
    if (!result) return { state: "nothing-to-resume" };
    return start.steer ? { state: "steered", messageID: start.steer.messageID, worker } : { state: "answered", messageID: result.info.parentID, worker };
  }

  // Known once pg-boss registered the handler; jobs report it as the worker that ran them.
  let workID = "";
  workID = await queue.boss.work(
    queue.name,
    { localConcurrency: concurrency, batchSize: 1, pollingIntervalSeconds: 0.5 },
    async ([job]) => handle(job!),
  );

  async function stop(stopOptions: { graceMs?: number } = {}): Promise<void> {
    stopping ??= (async () => {
      await queue.boss.offWork(queue.name, { id: workID, wait: false });
      const deadline = Date.now() + (stopOptions.graceMs ?? options.graceMs ?? 30_000);
      while (active.size > 0 && Date.now() < deadline) await sleep(50);
      // Turns still running are handed back as they are stored: another worker resumes them.
      for (const [sessionID, turn] of active) {
        turn.handedBack = true;
        storage.fence(sessionID);
        turn.closed = true;
        turn.run?.abort("worker stopping");
        for (const steer of turn.steers) steer.abort("worker stopping");
      }
      while (active.size > 0) await sleep(20);
      await queue.boss.offWork(queue.name, { id: workID, wait: true }).catch(() => {});
      await forwarder.flush().catch(() => {});
      await listener?.close();
      await steerListener?.close();
      await agent.close();
      await storage.close();
      process.off("SIGTERM", onSignal);
      process.off("SIGINT", onSignal);
      resolveStopped();
    })();
    return stopping;
  }

  const onSignal = () => void stop();
  if (options.handleSignals ?? true) {
    process.once("SIGTERM", onSignal);
    process.once("SIGINT", onSignal);
  }

  return { id: workID, active: () => [...active.keys()], stop, stopped };
}

/**
 * A job taken again whose turn had finished: the worker that finished it may have died before its
 * last events reached the log. Subscribers then get the stored answer and the idle status, once.
 */
async function announceFinished(queue: TurnQueue, storage: Storage, sessionID: string, promptID: string): Promise<void> {
  const answer = (await storage.listMessages(sessionID)).find((m) => m.info.role === "assistant" && m.info.parentID === promptID);
  if (!answer) return;
  const logged = await queue.events().read<AgentEvent>(sessionID);
  const announced = logged.some(({ event }) => event.type === "message.updated" && event.message.role === "assistant" && event.message.id === answer.info.id && event.message.time.completed !== undefined);
  if (announced) return;
  const events: AgentEvent[] = [
    ...answer.parts.map((part): AgentEvent => ({ type: "message.part.updated", sessionID, part })),
    { type: "message.updated", sessionID, message: answer.info },
    { type: "session.status", sessionID, status: { type: "idle" } },
  ];
  await queue.events().append(sessionID, events);
}

/** A request of the job's own session for a tool call: the turn can wait for it without a worker. */
function isOwnApproval(event: AgentEvent, sessionID: string): event is Extract<AgentEvent, { type: "permission.asked" }> {
  return event.type === "permission.asked" && event.sessionID === sessionID && event.request.tool !== undefined;
}
