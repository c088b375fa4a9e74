#!/usr/bin/env node
// Runs every benchmark in bench/ (files named *.bench.ts), one after another so they do not compete
// for the machine's cores, then writes the report: bench/RESULTS.md (every figure with its baseline
// and ratio, the machine, the date) and bench/ratios.svg (a chart of the ratios).
//
//   npm run bench                 all benchmarks, then the report
//   npm run bench -- <filter>     the benchmarks whose file name contains <filter>, then the report
//   node bench/run.mjs --report   only the report, from the results already in bench/.results/
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, platform, release, totalmem } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const resultsDir = join(here, ".results");
const reportOnly = process.argv.includes("--report");
const filter = process.argv.slice(2).find((arg) => !arg.startsWith("--"));
const files = readdirSync(here).filter((f) => f.endsWith(".bench.ts")).sort();

let failed = 0;
if (!reportOnly) {
  const build = spawnSync("npm", ["run", "build"], { stdio: "inherit", cwd: join(here, "..") });
  if (build.status !== 0) process.exit(build.status ?? 1);
  for (const file of files.filter((f) => !filter || f.includes(filter))) {
    const r = spawnSync(process.execPath, ["--expose-gc", join(here, file)], { stdio: "inherit" });
    if (r.status !== 0) {
      failed++;
      console.error(`bench: ${file} failed (exit ${r.status ?? r.signal})`);
    }
  }
}
writeReport();
process.exit(failed ? 1 : 0);

/** Gathers bench/.results/<name>.json of the benchmarks that exist and writes RESULTS.md and ratios.svg. */
function writeReport() {
  const results = files
    .map((file) => join(resultsDir, file.replace(/\.bench\.ts$/, ".json")))
    .filter((path) => existsSync(path))
    .map((path) => JSON.parse(readFileSync(path, "utf8")));
  if (results.length === 0) {
    console.error("bench: no results to report (run the benchmarks first)");
    return;
  }
  writeFileSync(join(here, "RESULTS.md"), markdown(results));
  writeFileSync(join(here, "ratios.svg"), chart(results));
  console.log(`\nbench: wrote bench/RESULTS.md and bench/ratios.svg (${results.length} benchmark(s))`);
}

function fmt(n) {
  if (n === undefined || n === null || Number.isNaN(n)) return "";
  const abs = Math.abs(n);
  return abs >= 100 ? Math.round(n).toLocaleString("en-US") : abs >= 1 ? n.toFixed(2) : n.toPrecision(3);
}

function ratioOf(f) {
  return f.baselineValue ? f.value / f.baselineValue : undefined;
}
function cell(text) {
  return String(text ?? "").replace(/\|/g, "\\|");
}

/** The limit a figure's target states as a ratio ("≤ 1.15×", "< 2×"), if it does. */
function targetRatio(target) {
  const match = /^\s*[≤<]\s*([\d.]+)\s*×\s*$/.exec(target ?? "");
  return match ? Number(match[1]) : undefined;
}

function machine() {
  const cpu = cpus();
  return [
    `- CPU: ${cpu[0]?.model.trim() ?? "unknown"} × ${cpu.length} (as seen by Node)`,
    `- Memory: ${(totalmem() / 2 ** 30).toFixed(1)} GiB`,
    `- OS: ${platform()} ${release()}`,
    `- Node: ${process.version}`,
  ].join("\n");
}

function markdown(results) {
  const dates = results.map((r) => r.date).sort();
  const lines = [
    "# Benchmark results",
    "",
    "Written by `npm run bench` (bench/run.mjs) from the figures each `bench/*.bench.ts` recorded. Every",
    "figure is measured next to a baseline in the same run; **ratio** = Lathe ÷ baseline, so below 1× Lathe",
    "is faster (all figures with a baseline are times, lower is better). Targets are the goals set for",
    "each figure. [ratios.svg](ratios.svg) charts the ratios.",
    "",
    `Date: ${dates[dates.length - 1]?.slice(0, 10)} (benchmarks run ${dates[0]?.replace("T", " ").slice(0, 16)} – ${dates[dates.length - 1]?.replace("T", " ").slice(0, 16)} UTC)`,
    "",
    "Machine:",
    "",
    machine(),
    "",
  ];
  for (const result of results) {
    lines.push(`## ${result.name}`, "", `Run ${result.date.replace("T", " ").slice(0, 19)} UTC.`, "");
    lines.push("| figure | Lathe | baseline | baseline value | ratio | target | note |", "|---|---:|---|---:|---:|---|---|");
    for (const f of result.figures) {
      const unit = f.unit ?? "ms";
      const ratio = ratioOf(f);
      const limit = targetRatio(f.target);
      const verdict = ratio !== undefined && limit !== undefined ? (ratio <= limit ? " ✓" : " ✗") : "";
      lines.push(
        `| ${cell(f.name)} | ${fmt(f.value)} ${unit} | ${cell(f.baseline ?? "—")} | ${f.baselineValue ? `${fmt(f.baselineValue)} ${unit}` : "—"} | ${ratio !== undefined ? `${fmt(ratio)}×${verdict}` : "—"} | ${cell(f.target ?? "")} | ${cell(f.note ?? "")} |`,
      );
    }
    lines.push("");
  }
  return `${lines.join("\n")}\n`;
}

function escapeXml(text) {
  return String(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/** A horizontal bar chart of the ratios on a log scale, 1× marked; a target ratio is a tick on its bar. */
function chart(results) {
  const rows = results.flatMap((r) =>
    r.figures.filter((f) => ratioOf(f) !== undefined && ratioOf(f) > 0).map((f) => ({ bench: r.name, name: f.name, ratio: ratioOf(f), target: targetRatio(f.target) })),
  );
  const logs = rows.flatMap((row) => [Math.log10(row.ratio), ...(row.target ? [Math.log10(row.target)] : [])]);
  const lo = Math.min(-1, Math.floor(Math.min(...logs)));
  const hi = Math.max(1, Math.ceil(Math.max(...logs)));
  const labelWidth = 560;
  const plotWidth = 420;
  const rowHeight = 22;
  const top = 56;
  const width = labelWidth + plotWidth + 90;
  const height = top + rows.length * rowHeight + 40;
  const x = (ratio) => labelWidth + ((Math.log10(ratio) - lo) / (hi - lo)) * plotWidth;
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, -apple-system, Segoe UI, sans-serif" font-size="12">`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="12" y="22" font-size="15" font-weight="600">Lathe ÷ baseline (log scale; left of 1× is faster)</text>`,
    `<text x="12" y="40" fill="#555">green: at or under 1× · orange: over 1× · black tick: the figure's target</text>`,
  ];
  for (let p = lo; p <= hi; p++) {
    const gx = x(10 ** p);
    parts.push(`<line x1="${gx}" y1="${top - 6}" x2="${gx}" y2="${top + rows.length * rowHeight}" stroke="${p === 0 ? "#333" : "#ddd"}" stroke-width="${p === 0 ? 1.5 : 1}"/>`);
    parts.push(`<text x="${gx}" y="${top + rows.length * rowHeight + 16}" text-anchor="middle" fill="#555">${fmt(10 ** p)}×</text>`);
  }
  rows.forEach((row, i) => {
    const y = top + i * rowHeight;
    const base = x(1);
    const end = x(row.ratio);
    const label = `${row.bench}: ${row.name}`;
    parts.push(`<text x="${labelWidth - 8}" y="${y + 15}" text-anchor="end">${escapeXml(label.length > 88 ? `${label.slice(0, 87)}…` : label)}</text>`);
    parts.push(`<rect x="${Math.min(base, end)}" y="${y + 4}" width="${Math.max(1, Math.abs(end - base))}" height="${rowHeight - 8}" fill="${row.ratio <= 1 ? "#2e9d5b" : "#e08a1e"}"/>`);
    if (row.target) parts.push(`<line x1="${x(row.target)}" y1="${y + 2}" x2="${x(row.target)}" y2="${y + rowHeight - 2}" stroke="#000" stroke-width="2"/>`);
    parts.push(`<text x="${labelWidth + plotWidth + 8}" y="${y + 15}">${fmt(row.ratio)}×</text>`);
  });
  parts.push("</svg>");
  return `${parts.join("\n")}\n`;
}
