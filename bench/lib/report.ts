// Shared helpers for Lathe's benchmarks: timing, a printed table, and a JSON record per benchmark
// file (bench/.results/<name>.json) that `npm run bench` gathers into one report.
import { mkdirSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** One measured figure, compared with a baseline measured in the same run. */
export interface BenchFigure {
  /** What was measured, e.g. "apply 1,000-chunk patch to 100k lines". */
  name: string;
  /** Lathe's value (milliseconds unless `unit` says otherwise). */
  value: number;
  /** The baseline's name, e.g. "git apply". */
  baseline?: string;
  /** The baseline's value, same unit. */
  baselineValue?: number;
  /** Unit of value and baselineValue. */
  unit?: string;
  /** The target ratio (value ÷ baselineValue) or absolute limit, for the report. */
  target?: string;
  /** Anything else worth printing. */
  note?: string;
}

/** Times `fn` `runs` times after `warmup` runs and returns the median in milliseconds. */
export async function medianMs(fn: () => unknown | Promise<unknown>, runs = 5, warmup = 1): Promise<number> {
  for (let i = 0; i < warmup; i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

/** Prints the figures as a table and records them for the combined report. */
export function report(benchFile: string, figures: BenchFigure[]): void {
  const name = basename(fileURLToPath(benchFile)).replace(/\.bench\.ts$/, "");
  console.log(`\n## ${name}`);
  for (const f of figures) {
    const unit = f.unit ?? "ms";
    const ratio = f.baselineValue ? ` | ${f.baseline}: ${fmt(f.baselineValue)} ${unit} | ratio ${(f.value / f.baselineValue).toFixed(2)}×` : "";
    const target = f.target ? ` | target ${f.target}` : "";
    const note = f.note ? ` | ${f.note}` : "";
    console.log(`- ${f.name}: ${fmt(f.value)} ${unit}${ratio}${target}${note}`);
  }
  const dir = join(dirname(fileURLToPath(import.meta.url)), "..", ".results");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${name}.json`), JSON.stringify({ name, date: new Date().toISOString(), figures }, null, 2));
}

function fmt(n: number): string {
  return n >= 100 ? n.toFixed(0) : n >= 1 ? n.toFixed(2) : n.toPrecision(3);
}
