// Storage adapters against the memory adapter, measured in the same run: writing 10,000 parts and
// loading a 10,000-part session, plus how many write calls (batches) it took. The "stream 100,000
// deltas" figure of issue 5 needs the loop's coalescing writer in @lathe/core and is not measured here.
import { createId, type Part } from "@lathe/message";
import { FileStorage, MemoryStorage, SqliteStorage, type Storage, type WriteBatch } from "@lathe/storage";
import { PostgresStorage, startTestPostgres } from "@lathe/storage-postgres";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { medianMs, report, type BenchFigure } from "./lib/report.ts";

const PARTS = 10_000;
const MESSAGES = 10;
const BATCH = 100; // parts per write call, about what a flush of a busy step holds

/** Counts write calls, the unit of work each adapter turns into one transaction (or one set of file renames). */
class CountingStorage {
  writes = 0;
  readonly inner: Storage;
  constructor(inner: Storage) {
    this.inner = inner;
  }
  write(batch: WriteBatch): Promise<void> {
    this.writes++;
    return this.inner.write(batch);
  }
}

function sessionRecords() {
  const now = Date.now();
  const tokens = { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } };
  const session = { id: createId("session"), title: "bench", directory: "/bench", time: { created: now, updated: now }, usage: { tokens, cost: 0 } };
  const messages = Array.from({ length: MESSAGES }, () => ({
    id: createId("message"), sessionID: session.id, role: "user" as const, time: { created: now }, agent: "build",
  }));
  const parts: Part[] = [];
  for (let i = 0; i < PARTS; i++) {
    const message = messages[i % MESSAGES]!;
    parts.push(i % 4 === 0
      ? { id: createId("part"), sessionID: session.id, messageID: message.id, type: "tool", callID: createId("tool"), tool: "read",
          state: { status: "completed", input: { path: `src/file-${i}.ts` }, output: "line\n".repeat(20), title: `file-${i}.ts`, metadata: { lines: 20 }, time: { start: now, end: now } } }
      : { id: createId("part"), sessionID: session.id, messageID: message.id, type: "text", text: `Some streamed text of part ${i}. `.repeat(8) });
  }
  return { session, messages, parts };
}

async function writeSession(storage: CountingStorage) {
  const { session, messages, parts } = sessionRecords();
  await storage.write({ sessions: [session], messages });
  for (let i = 0; i < parts.length; i += BATCH) await storage.write({ parts: parts.slice(i, i + BATCH) });
  return session.id;
}

interface Result {
  name: string;
  writeMs: number;
  writesPerSession: number;
  loadMs: number;
}

async function measure(name: string, storage: Storage, runs: number): Promise<Result> {
  const counting = new CountingStorage(storage);
  let sessions = 0;
  const writeMs = await medianMs(async () => {
    await writeSession(counting);
    sessions++;
  }, runs, 1);
  const loaded = await writeSession(counting);
  sessions++;
  const check = await storage.listMessages(loaded);
  const count = check.reduce((n, m) => n + m.parts.length, 0);
  if (count !== PARTS) throw new Error(`${name}: loaded ${count} parts, wrote ${PARTS}`);
  const loadMs = await medianMs(() => storage.listMessages(loaded), 7, 2);
  await storage.close();
  return { name, writeMs, writesPerSession: counting.writes / sessions, loadMs };
}

const dir = mkdtempSync(join(tmpdir(), "lathe-bench-storage-"));
const server = await startTestPostgres();
const results: Result[] = [];
try {
  results.push(await measure("memory", new MemoryStorage(), 5));
  results.push(await measure("sqlite", new SqliteStorage(join(dir, "bench.db")), 5));
  results.push(await measure("file", await FileStorage.open(join(dir, "files")), 2));
  results.push(await measure("postgres", await PostgresStorage.open({ connectionString: await server.createDatabase() }), 3));
} finally {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}

const memory = results[0]!;
const figures: BenchFigure[] = [];
for (const r of results) {
  figures.push({
    name: `${r.name}: write 10,000 parts`,
    value: r.writeMs,
    baseline: "memory",
    baselineValue: memory.writeMs,
    note: `${r.writesPerSession} write calls (1 for session+messages, then ${BATCH} parts each)`,
  });
}
for (const r of results) {
  figures.push({
    name: `${r.name}: load a 10,000-part session`,
    value: r.loadMs,
    baseline: "memory",
    baselineValue: memory.loadMs,
    target: r.name === "sqlite" ? "< 100 ms" : undefined,
    note: "listMessages, median of 7",
  });
}
report(import.meta.url, figures);
