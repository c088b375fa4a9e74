import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import type { Lease } from "./storage.js";

/** Which adapter a child process opens: `new (await import(module))[exportName](options)`. */
export interface StorageProcessSpec {
  /** Module specifier, resolved from `@lathe/storage`'s folder (e.g. `"@lathe/storage"`, `"my-redis-storage"`). */
  module: string;
  /** The adapter class exported by the module (e.g. `"SqliteStorage"`). */
  exportName: string;
  /** The one constructor argument, as JSON (a path, `{ connectionString }`, …). */
  options: unknown;
}

/** A storage adapter open in another process, for testing that leases exclude processes. */
export interface LeaseProcess {
  /** The child's process id. */
  pid: number;
  acquireLease(sessionID: string, owner: string, ttlMs: number): Promise<Lease | undefined>;
  renewLease(sessionID: string, owner: string, ttlMs: number): Promise<Lease | undefined>;
  releaseLease(sessionID: string, owner: string): Promise<void>;
  /** The adapter's `getLease`, seen from this process. */
  getLease(sessionID: string): Promise<Lease | undefined>;
  /** Closes the storage and waits for the process to exit. */
  close(): Promise<void>;
}

/**
 * Test utility: starts a Node child process that opens the adapter `spec` names and takes, renews
 * and releases leases on command, once it has opened (and migrated) the store. Use two to check
 * that processes sharing a store exclude each other.
 */
export async function spawnLeaseProcess(spec: StorageProcessSpec): Promise<LeaseProcess> {
  const fromSources = import.meta.url.endsWith(".ts");
  const script = new URL(fromSources ? "./lease-child.ts" : "./lease-child.js", import.meta.url);
  const child = spawn(process.execPath, ["--no-warnings", fileURLToPath(script), spec.module, spec.exportName, JSON.stringify(spec.options)], {
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  let nextId = 0;
  let ready: () => void;
  let failed: (e: Error) => void;
  const started = new Promise<void>((resolve, reject) => {
    ready = resolve;
    failed = reject;
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.once("exit", (code) => {
    const error = new Error(`lease process exited (${code}): ${stderr.trim()}`);
    failed(error);
    for (const w of waiting.values()) w.reject(error);
  });
  createInterface({ input: child.stdout }).on("line", (line) => {
    const message = JSON.parse(line) as { ready?: true; id?: number; result?: unknown; error?: string };
    if (message.ready) return ready();
    const w = waiting.get(message.id!);
    waiting.delete(message.id!);
    if (message.error !== undefined) w?.reject(new Error(message.error));
    else w?.resolve(message.result ?? undefined);
  });
  const call = (op: string, sessionID?: string, owner?: string, ttlMs?: number) =>
    new Promise<unknown>((resolve, reject) => {
      const id = nextId++;
      waiting.set(id, { resolve, reject });
      child.stdin.write(`${JSON.stringify({ id, op, sessionID, owner, ttlMs })}\n`);
    });
  await started;
  return {
    pid: child.pid!,
    acquireLease: (s, o, t) => call("acquireLease", s, o, t) as Promise<Lease | undefined>,
    renewLease: (s, o, t) => call("renewLease", s, o, t) as Promise<Lease | undefined>,
    releaseLease: async (s, o) => void (await call("releaseLease", s, o)),
    getLease: (s) => call("getLease", s) as Promise<Lease | undefined>,
    async close() {
      if (child.exitCode === null && child.signalCode === null) {
        await call("close").catch(() => {});
        child.stdin.end();
      }
      await exited;
    },
  };
}
