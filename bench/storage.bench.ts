// Storage adapters against the memory adapter, measured in the same run: writing 10,000 parts and
// loading a 10,000-part session, plus how many write calls (batches) it took. The "stream 100,000
// deltas" figure of issue 5 needs the loop's coalescing writer in @lathe/core and is not measured here.
import { createId, type Part } from "@lathe/message";
import { FileStorage, MemoryStorage, SqliteStorage, type Storage, type WriteBatch } from "@lathe/storage";
import { PostgresStorage, startTestPostgres } from "@lathe/storage-postgres";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import pg from "pg";
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
  /** The same load with one part damaged in place: the intact parts read row by row, the damaged one reported. */
  damagedLoadMs?: number;
}

/** Replaces one stored part's text with torn JSON, as a disk fault would. */
type Damage = (sessionID: string, part: { messageID: string; id: string }) => Promise<void>;

const TORN = '{"id": "torn';

const damageSqlite = (path: string): Damage => async (sessionID, part) => {
  const db = new (createRequire(import.meta.url)("node:sqlite") as typeof import("node:sqlite")).DatabaseSync(path);
  db.prepare("UPDATE part SET data = ? WHERE session_id = ? AND message_id = ? AND id = ?").run(TORN, sessionID, part.messageID, part.id);
  db.close();
};

const damageFiles = (dir: string): Damage => async (sessionID, part) => {
  writeFileSync(join(dir, "sessions", sessionID, "messages", part.messageID, "parts", `${part.id}.json`), TORN);
};

const damagePostgres = (connectionString: string): Damage => async (sessionID, part) => {
  const client = new pg.Client({ connectionString });
  await client.connect();
  await client.query("UPDATE lathe.part SET data = $1 WHERE session_id = $2 AND message_id = $3 AND id = $4", [TORN, sessionID, part.messageID, part.id]);
  await client.end();
};

async function measure(name: string, storage: Storage, runs: number, damage?: Damage): Promise<Result> {
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
  let damagedLoadMs: number | undefined;
  if (damage) {
    const victim = check[3]!.parts[500]!;
    await damage(loaded, victim);
    damagedLoadMs = await medianMs(async () => {
      const parts = (await storage.listMessages(loaded)).reduce((n, m) => n + m.parts.length, 0);
      if (parts !== PARTS - 1) throw new Error(`${name}: loaded ${parts} parts around the damaged one`);
    }, 7, 2);
  }
  await storage.close();
  return { name, writeMs, writesPerSession: counting.writes / sessions, loadMs, ...(damagedLoadMs === undefined ? {} : { damagedLoadMs }) };
}

const dir = mkdtempSync(join(tmpdir(), "lathe-bench-storage-"));
const server = await startTestPostgres();
const results: Result[] = [];
try {
  results.push(await measure("memory", new MemoryStorage(), 5));
  // Damaged records are reported to onCorrupt (here: ignored) and left out.
  const onCorrupt = () => {};
  results.push(await measure("sqlite", new SqliteStorage(join(dir, "bench.db"), { onCorrupt }), 5, damageSqlite(join(dir, "bench.db"))));
  results.push(await measure("file", await FileStorage.open(join(dir, "files"), { onCorrupt }), 2, damageFiles(join(dir, "files"))));
  const connectionString = await server.createDatabase();
  results.push(await measure("postgres", await PostgresStorage.open({ connectionString, onCorrupt }), 3, damagePostgres(connectionString)));
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
for (const r of results) {
  if (r.damagedLoadMs === undefined) continue;
  figures.push({
    name: `${r.name}: load a 10,000-part session with one part damaged`,
    value: r.damagedLoadMs,
    baseline: `${r.name} intact`,
    baselineValue: r.loadMs,
    note: "the 9,999 intact parts load, the damaged one is reported (listMessages, median of 7)",
  });
}
report(import.meta.url, figures);
