// Streaming 100,000 deltas through the agent into each storage adapter: time ÷ memory in the same
// run, and how many storage writes the coalescing writer made.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createAgent } from "@lathe/core";
import { mockModel } from "@lathe/mock";
import { FileStorage, MemoryStorage, SqliteStorage, type Storage } from "@lathe/storage";
import { PostgresStorage, startTestPostgres } from "@lathe/storage-postgres";
import { report, type BenchFigure } from "./lib/report.ts";

const DELTAS = 100_000;
const text = "x".repeat(DELTAS);

function counting(storage: Storage): { storage: Storage; writes: () => number } {
  let writes = 0;
  const write = storage.write.bind(storage);
  storage.write = (batch) => {
    writes++;
    return write(batch);
  };
  return { storage, writes: () => writes };
}

async function stream(storage: Storage): Promise<{ ms: number; writes: number }> {
  const counted = counting(storage);
  const agent = createAgent({ model: mockModel([{ text }], { chunkSize: 1 }), storage: counted.storage, snapshots: false });
  const session = await agent.sessions.create();
  const before = counted.writes();
  const start = performance.now();
  const { info } = await agent.prompt(session.id, "stream");
  const ms = performance.now() - start;
  if (info.finish !== "stop") throw new Error(`unexpected finish ${info.finish}`);
  await agent.close();
  return { ms, writes: counted.writes() - before };
}

const dir = mkdtempSync(join(tmpdir(), "lathe-bench-stream-"));
const pg = await startTestPostgres();
try {
  const adapters: Array<[string, () => Storage]> = [
    ["memory", () => new MemoryStorage()],
    ["sqlite", () => new SqliteStorage(join(dir, `db-${Math.random()}.sqlite`))],
    ["files", () => new FileStorage(join(dir, `files-${Math.random()}`))],
    ["postgres", () => new PostgresStorage({ connectionString: pg.connectionString })],
  ];
  const results = new Map<string, { ms: number; writes: number }>();
  for (const [name, make] of adapters) {
    await stream(make()); // warm-up
    const runs: Array<{ ms: number; writes: number }> = [];
    for (let i = 0; i < 3; i++) {
      const storage = make();
      runs.push(await stream(storage));
      await storage.close();
    }
    runs.sort((a, b) => a.ms - b.ms);
    results.set(name, runs[1]!);
  }
  const memory = results.get("memory")!;
  const figures: BenchFigure[] = [...results].map(([name, r]) => ({
    name: `stream ${DELTAS.toLocaleString("en")} deltas into ${name}`,
    value: r.ms,
    baseline: "memory",
    baselineValue: memory.ms,
    ...(name === "sqlite" ? { target: "≤ 1.5×" } : {}),
    note: `${r.writes} storage writes`,
  }));
  report(import.meta.url, figures);
} finally {
  await pg.stop();
  rmSync(dir, { recursive: true, force: true });
}
