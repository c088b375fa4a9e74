/**
 * Agent turns as durable jobs on pg-boss: many HTTP processes and workers over one PostgreSQL,
 * turns that outlive the worker running them, approvals that do not hold a worker, and session
 * events from whichever worker runs the turn. Start with {@link createQueue}.
 *
 * @module @lathe/queue
 */
export { createQueue, TurnQueue, type QueueOptions, type QueueSubscribeOptions, type DeadLetter, type EnqueueOptions } from "./queue.js";
export type { MakeAgent, Worker, WorkerContext, WorkOptions } from "./worker.js";
export { QueuedPromptOptions, type TurnJob, type TurnOutcome } from "./jobs.js";
export { QUEUE_METADATA_KEY, queueNotes } from "./prompt-ids.js";
export { FencedStorage } from "./fenced-storage.js";
export type { PgBossInstance, BossJob } from "./boss.js";
