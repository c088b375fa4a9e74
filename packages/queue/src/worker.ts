import { NothingToResumeError, SessionBusyError, type Agent, type AgentEvent, type HandOffReply, type Run, type RunResult } from "@lathe/core";
import type { Storage } from "@lathe/storage";
import { PostgresStorage } from "@lathe/storage-postgres";
import type { BossJob } from "./boss.js";
import { EventForwarder } from "./event-forwarder.js";
import { FencedStorage } from "./fenced-storage.js";
import { TurnJob, type TurnOutcome } from "./jobs.js";
import { giveUp } from "./give-up.js";
import type { TurnQueue } from "./queue.js";
import { abortChannel } from "./queue.js";
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

  async function handle(job: BossJob): Promise<TurnOutcome> {
    const data = TurnJob.parse(job.data);
    const { sessionID } = data;
    // The last claim of a turn whose workers kept dying: end it as failed rather than run it again.
    const poisoned = job.retryCount >= queue.maxAttempts;
    const turn: ActiveTurn = { run: undefined, handedBack: false };
    active.set(sessionID, turn);
    try {
      const deadline = Date.now() + (options.leaseWaitMs ?? 120_000);
      for (;;) {
        try {
          return poisoned ? await giveUp({ queue, agent, storage, forwarder, job: data, jobID: job.id }) : await runJob(data, job.id, turn);
        } catch (error) {
          // A worker that died may still hold the session's lease until it lapses: wait for it.
          if (!(error instanceof SessionBusyError) || Date.now() > deadline || turn.handedBack) throw error;
          await sleep(250);
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
    let result: RunResult;
    try {
      for await (const event of started) {
        // Once fenced, what the abort records never happened as far as storage goes: only the status is true.
        if (!storage.isFenced(sessionID) || event.type === "session.status") forwarder.push(sessionID, event);
        if (waiting === undefined && isOwnApproval(event, sessionID)) {
          // Leave the turn as stored, waiting for its answer, and free this worker: the answer enqueues the resume.
          waiting = event.request.id;
          storage.fence(sessionID);
          started.abort("waiting for approval");
        }
      }
      result = await started;
    } catch (error) {
      if (error instanceof NothingToResumeError) return { state: "nothing-to-resume" };
      throw error;
    }
    if (turn.handedBack) throw new Error(`Handed back: worker stopping while session ${sessionID} ran.`);
    await forwarder.flush(sessionID);
    const worker = workID;
    return waiting !== undefined ? { state: "waiting", requestID: waiting, worker } : { state: "answered", messageID: result.info.parentID, worker };
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
        turn.run?.abort("worker stopping");
      }
      while (active.size > 0) await sleep(20);
      await queue.boss.offWork(queue.name, { id: workID, wait: true }).catch(() => {});
      await forwarder.flush().catch(() => {});
      await listener?.close();
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
