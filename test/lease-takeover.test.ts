// A process killed while it runs a prompt must not block the session: the next process, on the same
// host, takes the lease over at once instead of waiting out the 30 s lease. Per adapter, with a real
// child process killed with SIGKILL.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAgent, SessionBusyError } from "@lathe/core";
import { mockModel } from "@lathe/mock";
import { FileStorage, SqliteStorage, type Storage } from "@lathe/storage";
import { PostgresStorage, startTestPostgres, type TestPostgres } from "@lathe/storage-postgres";

const holderScript = fileURLToPath(new URL("./fixtures/lease-holder.ts", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "lathe-takeover-"));
let pg: TestPostgres;

beforeAll(async () => {
  pg = await startTestPostgres();
}, 120_000);
afterAll(async () => {
  await pg?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const adapters = [
  { kind: "sqlite", location: () => join(dir, "takeover.sqlite"), open: (where: string): Storage => new SqliteStorage(where) },
  { kind: "file", location: () => join(dir, "takeover-files"), open: (where: string): Storage => new FileStorage(where) },
  { kind: "postgres", location: () => pg.connectionString, open: (where: string): Storage => new PostgresStorage({ connectionString: where }) },
];

/** Starts the holder and resolves once it holds the session's lease. */
function startHolder(kind: string, location: string, sessionID: string) {
  const child = spawn(process.execPath, [holderScript, kind, location, sessionID], { stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const holding = new Promise<void>((resolve, reject) => {
    child.stdout.on("data", (d: Buffer) => d.toString().includes("HOLDING") && resolve());
    void exited.then(() => reject(new Error(`holder exited early: ${stderr}`)));
  });
  return { child, exited, holding };
}

describe.each(adapters)("$kind: a holder killed mid-prompt", ({ kind, location, open }) => {
  it("is named by SessionBusyError while it lives, and taken over at once after SIGKILL", async () => {
    const where = location();
    const storage = open(where);
    try {
      const agent = createAgent({ model: mockModel([{ text: "taken over" }]), storage, snapshots: false });
      const session = await agent.sessions.create({ title: kind });
      const holder = startHolder(kind, where, session.id);
      try {
        await holder.holding;
        const busy = await agent.prompt(session.id, "me too").then(
          () => undefined,
          (error: unknown) => error,
        );
        expect(busy).toBeInstanceOf(SessionBusyError);
        const holderLease = (busy as SessionBusyError).holder;
        expect(holderLease).toMatchObject({ pid: holder.child.pid, host: hostname() });
        // The default lease: held for about 30 s more, and the message says so.
        expect(holderLease!.expiresAt).toBeGreaterThan(Date.now() + 20_000);
        expect((busy as Error).message).toContain(`process ${holder.child.pid} on ${hostname()}`);
        expect((busy as Error).message).toContain(new Date(holderLease!.expiresAt).toISOString());
      } finally {
        holder.child.kill("SIGKILL");
        await holder.exited;
      }
      const started = Date.now();
      const { info } = await agent.prompt(session.id, "after the crash");
      expect(info.error).toBeUndefined();
      expect(info.finish).toBe("stop");
      expect(Date.now() - started).toBeLessThan(10_000);
      await agent.close();
    } finally {
      await storage.close();
    }
  }, 60_000);
});
