import type { AgentEvent, HandOffReply, PromptInput } from "@lathe/core";
import { createId } from "@lathe/message";
import { PostgresEventLog, type LoggedEvent } from "@lathe/storage-postgres";
import { PgBoss } from "pg-boss";
import type { BossJob, PgBossInstance } from "./boss.js";
import { QueuedPromptOptions, TurnJob, type TurnOutcome } from "./jobs.js";
import { startWorker, type MakeAgent, type Worker, type WorkOptions } from "./worker.js";

/** How a queue reaches PostgreSQL: a connection string, or your own pg-boss instance (and then a connection string for events). */
export type QueueOptions = ({ connectionString: string; boss?: PgBossInstance } | { boss: PgBossInstance; connectionString?: string }) & {
  /** The pg-boss queue of turns; default `"lathe_turns"`. Its dead letters go to `<name>_dead`. */
  name?: string;
  /** The PostgreSQL schema of Lathe's tables (sessions, events), as given to `PostgresStorage`; default `"lathe"`. */
  schema?: string;
  /**
   * How many times a turn may be taken by a worker that then dies (or fails) before it is given up:
   * the turn is then ended as failed, the reason stored on the session, and the job's data sent to
   * the dead letters. Default 3.
   */
  maxAttempts?: number;
  /**
   * How often a worker running a turn must say it is alive, in seconds (pg-boss's minimum is 10): a
   * worker silent for longer is taken for dead and its turn resumed by another. Default 10.
   */
  heartbeatSeconds?: number;
  /** How often pg-boss looks for lapsed heartbeats and due retries, in seconds; default 1 (with a pg-boss made here). */
  superviseIntervalSeconds?: number;
};

/** A job of the dead letters: a turn given up, with why. */
export interface DeadLetter {
  id: string;
  sessionID: string;
  reason: string;
  data: TurnJob;
  createdOn: Date;
}

/** Options of {@link TurnQueue.subscribe}. */
export interface QueueSubscribeOptions {
  /** The last `seq` this client saw (it resumes after it); default from the session's first event. */
  after?: number;
  /** Ends the subscription. */
  signal?: AbortSignal;
}

/** The session stored on a job of the dead letters. */
interface DeadLetterData {
  job: TurnJob;
  reason: string;
}

/** The channel workers listen on for `abort(sessionID)`. */
export const abortChannel = (schema: string) => `${schema}_abort`.toLowerCase();

/** The channel workers listen on for prompts steered into a session's running turn. */
export const steerChannel = (schema: string) => `${schema}_steer`.toLowerCase();

/** Options of {@link TurnQueue.enqueuePrompt}: the prompt's JSON-able options, and what it does when the session is busy. */
export interface EnqueueOptions extends QueuedPromptOptions {
  /**
   * `"queue"` (default): a turn of its own after the session's earlier prompts. `"steer"`: joins the
   * turn the session runs now, on whichever worker (see {@link TurnQueue.enqueuePrompt}).
   */
  whileBusy?: "queue" | "steer";
  /**
   * With `whileBusy: "steer"`: the id the message is stored under when a running turn takes it (made
   * with `createId("message")`; one is made when absent), so the sender can follow it — the UI
   * stream's `data-steer` part names it. A steered job no turn takes is answered by a turn of its own,
   * and its message then gets an id made when that turn starts.
   */
  messageID?: string;
}

/**
 * Agent turns as durable pg-boss jobs, shared by any number of processes: HTTP processes enqueue
 * prompts and subscribe to sessions; workers ({@link TurnQueue.work}) run the turns. Prompts to one
 * session run one at a time in the order sent (a `key_strict_fifo` queue keyed by session id);
 * different sessions run in parallel on any worker. Made by {@link createQueue}.
 */
export class TurnQueue {
  readonly name: string;
  readonly deadLetterName: string;
  readonly schema: string;
  readonly maxAttempts: number;
  readonly heartbeatSeconds: number;
  /** The pg-boss instance the queue runs on (yours, or the one it made). */
  readonly boss: PgBossInstance;
  /** @internal */
  readonly connectionString: string | undefined;
  private readonly ownsBoss: boolean;
  private started: Promise<void> | undefined;
  private eventLog: PostgresEventLog | undefined;
  /** @internal Requests whose answers a worker is applying here: not to be handed off again. */
  readonly replaying = new Set<string>();
  private readonly workers = new Set<Worker>();
  private closed = false;

  constructor(options: QueueOptions) {
    if (!options || (!options.connectionString && !options.boss)) throw new TypeError("createQueue needs a connectionString or a pg-boss instance (boss).");
    this.name = options.name ?? "lathe_turns";
    if (!/^[A-Za-z0-9_.-]{1,100}$/.test(this.name)) throw new TypeError(`invalid queue name ${JSON.stringify(this.name)}`);
    this.deadLetterName = `${this.name}_dead`;
    this.schema = options.schema ?? "lathe";
    this.maxAttempts = options.maxAttempts ?? 3;
    if (!Number.isInteger(this.maxAttempts) || this.maxAttempts < 1) throw new TypeError(`maxAttempts must be a positive integer, got ${options.maxAttempts}`);
    this.heartbeatSeconds = options.heartbeatSeconds ?? 10;
    if (!Number.isInteger(this.heartbeatSeconds) || this.heartbeatSeconds < 10) throw new TypeError(`heartbeatSeconds must be an integer of at least 10 (pg-boss's minimum), got ${options.heartbeatSeconds}`);
    this.connectionString = options.connectionString;
    this.ownsBoss = !options.boss;
    const supervise = options.superviseIntervalSeconds ?? 1;
    if (options.boss) this.boss = options.boss;
    else {
      const boss = new PgBoss({ connectionString: options.connectionString!, superviseIntervalSeconds: supervise, monitorIntervalSeconds: supervise, max: 4 });
      // pg-boss reports background trouble (a lost connection…) as events; without a listener Node would throw.
      boss.on("error", () => {});
      this.boss = boss as unknown as PgBossInstance;
    }
  }

  /** Starts pg-boss (when the queue made it) and creates the queue and its dead letters if missing. Called by every method; call it to fail early. */
  start(): Promise<void> {
    this.started ??= (async () => {
      if (this.ownsBoss) await this.boss.start();
      if (!(await this.boss.getQueue(this.deadLetterName))) await this.boss.createQueue(this.deadLetterName, { retryLimit: 0 });
      if (!(await this.boss.getQueue(this.name))) {
        await this.boss.createQueue(this.name, {
          policy: "key_strict_fifo",
          retryLimit: this.maxAttempts,
          retryDelay: 0,
          heartbeatSeconds: this.heartbeatSeconds,
          // A turn may run long (it has heartbeats); the expiry only bounds a stuck handler.
          expireInSeconds: 6 * 60 * 60,
          deadLetter: this.deadLetterName,
        });
      }
    })();
    this.started.catch(() => (this.started = undefined));
    return this.started;
  }

  /**
   * Sends a prompt to a session; returns the job id, once the job is stored (it survives any crash
   * from then on). Prompts to one session are answered one at a time, in the order they were
   * enqueued, by whichever worker is free: this queue is the session's queue of prompts
   * (`whileBusy: "queue"`, the default).
   *
   * With `whileBusy: "steer"` the prompt joins the turn the session runs now, on whichever worker
   * runs it: that worker stores it at once and the turn's next model request carries it, as
   * `agent.prompt`'s steer does in one process; the job's outcome is then `steered`. When no turn
   * takes it (none runs, or the turn ends first) it is answered by a turn of its own, in its place in
   * the queue. A steered prompt cannot carry turn options (`agent`, `system`, `maxSteps`, `limits`).
   */
  async enqueuePrompt(sessionID: string, input: PromptInput, options: EnqueueOptions = {}): Promise<string> {
    this.assertOpen();
    if (typeof sessionID !== "string" || sessionID === "") throw new TypeError("enqueuePrompt needs a session id.");
    if (typeof input === "string" ? input.trim() === "" : !Array.isArray(input) || input.length === 0) throw new TypeError("The prompt is empty.");
    const { whileBusy = "queue", messageID, ...rest } = options;
    if (whileBusy !== "queue" && whileBusy !== "steer") throw new TypeError(`whileBusy must be "queue" or "steer" for a queued prompt, got ${JSON.stringify(whileBusy)}.`);
    const promptOptions = QueuedPromptOptions.parse(rest);
    if (whileBusy === "steer" && Object.keys(promptOptions).length > 0) {
      throw new TypeError(`A steered prompt joins the running turn, which keeps its own ${Object.keys(promptOptions).join(", ")}: queue it to give them.`);
    }
    if (messageID !== undefined && (whileBusy !== "steer" || !/^msg_[0-9A-Za-z]{1,64}$/.test(messageID))) {
      throw new TypeError(`messageID is for a steered prompt, made by createId("message"); got ${JSON.stringify(messageID)} with whileBusy "${whileBusy}".`);
    }
    const steer = whileBusy === "steer" ? { messageID: messageID ?? createId("message") } : undefined;
    const job = TurnJob.parse({ kind: "prompt", sessionID, input, options: promptOptions, ...(steer ? { steer } : {}) });
    const jobID = await this.send(job);
    // The worker running the session's turn steers it in; one that misses this finds it at its next turn start.
    if (steer) await this.boss.getDb().executeSql("SELECT pg_notify($1, $2)", [steerChannel(this.schema), JSON.stringify({ sessionID, jobID })]);
    return jobID;
  }

  /** Queues the resume of a session's interrupted turn (answers given elsewhere travel with it); returns the job id. */
  async enqueueResume(sessionID: string, answers: Extract<TurnJob, { kind: "resume" }>["answers"] = []): Promise<string> {
    this.assertOpen();
    return this.send(TurnJob.parse({ kind: "resume", sessionID, answers }));
  }

  /**
   * Give it to `createAgent({ handOffReply: queue.handOffReply })` in the processes that answer
   * approvals: an answer to a turn that waits (its job ended, no worker holds it) enqueues the
   * turn's resume, with the answer, for any worker.
   */
  readonly handOffReply: HandOffReply = async ({ sessionID, request, reply }) => {
    if (this.replaying.has(request.id)) return false;
    await this.enqueueResume(sessionID, [{ requestID: request.id, reply }]);
    return true;
  };

  /**
   * The session's events, from whichever worker runs its turns: those stored after `after`, then
   * each new one as it comes, every one once and in order. Each has its `seq`; a client that
   * reconnects passes the last one it saw as `after` and misses nothing.
   */
  subscribe(sessionID: string, options: QueueSubscribeOptions = {}): AsyncGenerator<LoggedEvent<AgentEvent>> {
    this.assertOpen();
    return this.events().subscribe<AgentEvent>(sessionID, options);
  }

  /** Aborts the session's running turn, on whichever worker runs it. */
  async abort(sessionID: string, reason = "aborted"): Promise<void> {
    this.assertOpen();
    await this.start();
    await this.boss.getDb().executeSql("SELECT pg_notify($1, $2)", [abortChannel(this.schema), JSON.stringify({ sessionID, reason })]);
  }

  /** The turns given up (see `maxAttempts`), oldest first. */
  async deadLetters(limit = 1000): Promise<DeadLetter[]> {
    await this.start();
    const jobs = await this.boss.findJobs(this.deadLetterName, { limit });
    return jobs.map((job: BossJob) => {
      // A job pg-boss moved here itself (its last attempt died too) carries the turn's data as it was.
      const data = job.data as DeadLetterData | TurnJob;
      const turn = "job" in data ? data.job : data;
      const reason = "job" in data ? data.reason : "Every attempt's worker stopped, the last one included.";
      return { id: job.id, sessionID: turn.sessionID, reason, data: turn, createdOn: job.createdOn ?? new Date(0) };
    });
  }

  /** What a finished job of this queue did (its output), or undefined while it has none. */
  async outcome(jobID: string): Promise<{ state: string; output?: TurnOutcome } | undefined> {
    await this.start();
    const [job] = await this.boss.findJobs(this.name, { id: jobID });
    if (!job) return undefined;
    const output = job.output && typeof job.output === "object" && Object.keys(job.output).length ? { output: job.output as TurnOutcome } : {};
    return { state: job.state ?? "unknown", ...output };
  }

  /**
   * Starts a worker in this process: it takes jobs (up to `concurrency` turns at once), runs each
   * with the agent `makeAgent` builds (once, given the storage it must use), heartbeats while a turn
   * runs, and on SIGTERM stops gracefully — it finishes its turns or hands them back.
   */
  async work(makeAgent: MakeAgent, options: WorkOptions = {}): Promise<Worker> {
    this.assertOpen();
    await this.start();
    const worker = await startWorker(this, makeAgent, options);
    this.workers.add(worker);
    void worker.stopped.then(() => this.workers.delete(worker));
    return worker;
  }

  /** Stops this process's workers (gracefully), the event subscriptions, and pg-boss if the queue made it. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.allSettled([...this.workers].map((w) => w.stop()));
    await this.eventLog?.close();
    if (this.ownsBoss && this.started) await this.boss.stop({ graceful: false, close: true }).catch(() => {});
  }

  /** @internal The session event log (made on first use). */
  events(): PostgresEventLog {
    if (!this.connectionString) throw new TypeError("Session events need the queue's connectionString (createQueue({ boss, connectionString })).");
    this.eventLog ??= new PostgresEventLog({ connectionString: this.connectionString, schema: this.schema });
    return this.eventLog;
  }

  /** @internal Sends a job's data to the dead letters. */
  async bury(job: TurnJob, reason: string): Promise<void> {
    await this.boss.send(this.deadLetterName, { job, reason } satisfies DeadLetterData);
  }

  private async send(job: TurnJob): Promise<string> {
    await this.start();
    const id = await this.boss.send(this.name, job, { singletonKey: job.sessionID });
    if (!id) throw new Error(`pg-boss did not accept the job for session ${job.sessionID}.`);
    return id;
  }

  private assertOpen(): void {
    if (this.closed) throw new Error("The queue is closed.");
  }
}

/**
 * Creates a queue of agent turns on pg-boss.
 *
 * @example
 * ```ts
 * import { createQueue } from "@lathe/queue";
 * const queue = createQueue({ connectionString: "postgres://localhost/app" });
 * const jobID = await queue.enqueuePrompt("ses_123", "Fix the failing test");
 * ```
 */
export function createQueue(options: QueueOptions): TurnQueue {
  return new TurnQueue(options);
}
