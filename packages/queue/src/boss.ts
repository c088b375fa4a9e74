// The part of pg-boss the queue uses, declared here: the queue's public types then do not pull in
// pg-boss's own declarations, which (12.3x) do not type-check with `skipLibCheck` off.

/** A job as pg-boss hands it to a worker or lists it (`work()`, `findJobs()`). */
export interface BossJob {
  id: string;
  data: unknown;
  /** How many times the job was claimed again after an attempt started. */
  retryCount: number;
  state?: string;
  output?: unknown;
  createdOn?: Date;
}

/** What the queue needs of a pg-boss instance: a `PgBoss` of `pg-boss` v12 fits. */
export interface PgBossInstance {
  start(): Promise<unknown>;
  stop(options?: { graceful?: boolean; close?: boolean; timeout?: number }): Promise<void>;
  getQueue(name: string): Promise<object | null>;
  createQueue(name: string, options?: { policy?: string; retryLimit?: number; retryDelay?: number; heartbeatSeconds?: number; expireInSeconds?: number; deadLetter?: string }): Promise<void>;
  send(name: string, data: object, options?: { singletonKey?: string }): Promise<string | null>;
  findJobs(name: string, options?: { id?: string; key?: string; data?: object; queued?: boolean; limit?: number }): Promise<BossJob[]>;
  /** Completes jobs with an output; `includeQueued` completes jobs no worker took yet. */
  complete(name: string, id: string, data?: object | null, options?: { includeQueued?: boolean }): Promise<unknown>;
  getDb(): {
    executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
    listen?(channel: string, onNotification: (payload: string) => void, onReconnect: () => void): Promise<{ close(): Promise<void> }>;
  };
  work(name: string, options: { localConcurrency: number; batchSize: number; pollingIntervalSeconds: number }, handler: (jobs: BossJob[]) => Promise<unknown>): Promise<string>;
  offWork(name: string, options?: { id?: string; wait?: boolean }): Promise<void>;
}
