import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAgent } from "@lathe/core";
import { addTokens, emptyTokens, MessageWithParts, Session, usageOfParts } from "@lathe/message";
import { mockModel } from "@lathe/mock";
import { FileStorage, SqliteStorage, type Storage } from "@lathe/storage";
import { PostgresStorage, startTestPostgres, type TestPostgres } from "@lathe/storage-postgres";

const worker = fileURLToPath(new URL("./fixtures/worker.ts", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "lathe-crash-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function open(kind: string, where: string): Storage {
  if (kind === "sqlite") return new SqliteStorage(where);
  if (kind === "file") return new FileStorage(where);
  return new PostgresStorage({ connectionString: where });
}

// A small seeded generator, so a failing kill moment can be reproduced.
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

function spawnWorker(args: string[]) {
  const proc = spawn(process.execPath, [worker, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  proc.stdout.on("data", (d) => (stdout += d));
  proc.stderr.on("data", (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => proc.on("exit", (code) => resolve(code)));
  return { proc, exited, output: () => stdout, errors: () => stderr };
}

async function validateAndContinue(storage: Storage, sessionID: string): Promise<void> {
  for (const session of (await storage.listSessions()).sessions) Session.parse(session);
  for (const message of await storage.listMessages(sessionID)) MessageWithParts.parse(message);
  const agent = createAgent({ model: mockModel([{ text: "recovered" }]), storage });
  const { info } = await agent.prompt(sessionID, "after the crash");
  expect(info.error).toBeUndefined();
  expect(info.finish).toBe("stop");
  const history = await storage.listMessages(sessionID);
  for (const { info: message, parts } of history) {
    if (message.role !== "assistant") continue;
    expect(message.time.completed).toBeDefined();
    for (const part of parts) if (part.type === "tool") expect(["completed", "error"]).toContain(part.state.status);
  }
  await expectExactUsage(storage, sessionID);
}

/** The session's totals are exactly what its stored steps record: nothing lost to a kill, nothing counted twice. */
async function expectExactUsage(storage: Storage, sessionID: string): Promise<void> {
  const session = await storage.getSession(sessionID);
  let steps = 0;
  let tokens = emptyTokens();
  for (const { parts } of await storage.listMessages(sessionID)) {
    const used = usageOfParts(parts);
    steps += used.steps;
    tokens = addTokens(tokens, used.tokens);
  }
  expect(session?.usage.steps ?? 0).toBe(steps);
  expect(session?.usage.tokens).toEqual(tokens);
}

const KILLS = 30;

describe.each(["file", "sqlite", "postgres"])("SIGKILL at %s-storage moments", (kind) => {
  let pg: TestPostgres | undefined;
  beforeAll(async () => {
    if (kind === "postgres") pg = await startTestPostgres();
  }, 120_000);
  afterAll(async () => {
    await pg?.stop();
  });
  // PostgreSQL needs its server: fewer kills keep the suite's time in bounds.
  const kills = kind === "postgres" ? 15 : KILLS;
  it(`every session loads, validates, has exact usage and takes a new prompt after each of ${kills} kills`, async () => {
    const next = random(kind === "file" ? 7 : kind === "sqlite" ? 11 : 13);
    const location = kind === "postgres" ? pg!.connectionString : join(dir, kind === "file" ? "files" : "db.sqlite");
    const setup = open(kind, location);
    const session = await createAgent({ model: mockModel([]), storage: setup }).sessions.create({ title: kind });
    await setup.close();
    for (let kill = 0; kill < kills; kill++) {
      const child = spawnWorker([kind, location, session.id, "churn"]);
      await new Promise<void>((resolve, reject) => {
        const check = setInterval(() => {
          if (child.output().includes("READY")) {
            clearInterval(check);
            resolve();
          }
        }, 5);
        void child.exited.then((code) => reject(new Error(`worker exited ${code}: ${child.errors()}`)));
      });
      // Somewhere in the first few steps: mid-stream, mid-tool or mid-flush.
      await new Promise((r) => setTimeout(r, 20 + next() * 400));
      child.proc.kill("SIGKILL");
      await child.exited;
      await new Promise((r) => setTimeout(r, 320)); // the dead worker's lease lapses
      const storage = open(kind, location);
      try {
        await validateAndContinue(storage, session.id);
      } finally {
        await storage.close();
      }
    }
    const storage = open(kind, location);
    const history = await storage.listMessages(session.id);
    await storage.close();
    // Each kill left work behind (at least the new prompt's turn), so the session grew.
    expect(history.length).toBeGreaterThanOrEqual(kills * 2);
  }, 240_000);
});

describe("two processes prompt one session at once", () => {
  let pg: TestPostgres;
  beforeAll(async () => {
    pg = await startTestPostgres();
  }, 120_000);
  afterAll(async () => {
    await pg?.stop();
  });

  for (const kind of ["sqlite", "postgres"]) {
    it(`${kind}: exactly one runs, the other gets SessionBusyError; then the other can run`, async () => {
      const location = kind === "sqlite" ? join(dir, "race.sqlite") : pg.connectionString;
      const setup = open(kind, location);
      const session = await createAgent({ model: mockModel([]), storage: setup }).sessions.create();
      await setup.close();
      const a = spawnWorker([kind, location, session.id, "once"]);
      const b = spawnWorker([kind, location, session.id, "once"]);
      await Promise.all([a.exited, b.exited]);
      const outcomes = [a.output().trim(), b.output().trim()].sort();
      expect(outcomes, a.errors() + b.errors()).toEqual(["BUSY", "DONE stop"]);
      const again = spawnWorker([kind, location, session.id, "once"]);
      await again.exited;
      expect(again.output().trim(), again.errors()).toBe("DONE stop");
    }, 60_000);
  }
});
