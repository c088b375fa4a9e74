// Prompt caching: the simulated input cost of a scripted coding session (35 and 200 steps) through
// the real @ai-sdk/anthropic package against a local fake of the API, billed by Anthropic's
// published caching rules (AnthropicCacheSimulator of @lathe/mock: writes 1.25×, reads 0.1×,
// 20-block lookback, 1,024-token minimum, 5-minute TTL) on the exact request bodies. The same
// requests are billed three ways in the same run: as Lathe sent them, with no cache_control at all
// (uncached), and marked by OpenCode's scheme (first two system messages and last two messages).
// Targets: ≤ 0.2× uncached, ≤ 1.0× OpenCode.
//
// Then the 1-hour TTL against the default 5 minutes when the user is idle 10 minutes between turns,
// and the per-request cost of placing the breakpoints (µs), over the provider-level prompts of the
// 200-step session, against serialising the same prompt once (what sending it costs at least).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { wrapLanguageModel } from "ai";
import type { LanguageModelV4CallOptions } from "@ai-sdk/provider";
import { createAnthropic } from "@ai-sdk/anthropic";
import { placeBreakpoints, providerCaching, DEFAULT_CACHE_MIN_TOKENS } from "@lathe/core";
import { billedUnder, openCodeBreakpoints, runCodingSession, withoutBreakpoints, writeWorkspace } from "./lib/cache-session.ts";
import { report, type BenchFigure } from "./lib/report.ts";

const SESSIONS: Array<{ name: string; turns: number[] }> = [
  { name: "35-step session (3 turns)", turns: [12, 12, 11] },
  { name: "200-step session (10 turns)", turns: Array.from({ length: 10 }, () => 20) },
];

const figures: BenchFigure[] = [];
const dir = mkdtempSync(join(tmpdir(), "lathe-cache-bench-"));
try {
  writeWorkspace(dir);
  for (const { name, turns } of SESSIONS) {
    const run = await runCodingSession(dir, turns);
    const lathe = billedUnder(run.requests, (body) => body);
    const uncached = billedUnder(run.requests, withoutBreakpoints);
    const openCode = billedUnder(run.requests, openCodeBreakpoints);
    const tokens = `${run.requests.length} requests, ${(uncached.uncached / 1000).toFixed(0)}k input tokens`;
    figures.push({ name: `${name}: input cost vs uncached`, value: lathe.billed, baseline: "uncached", baselineValue: uncached.billed, unit: "token-units", target: "≤ 0.2×", note: tokens });
    figures.push({ name: `${name}: input cost vs OpenCode's breakpoints`, value: lathe.billed, baseline: "OpenCode scheme", baselineValue: openCode.billed, unit: "token-units", target: "≤ 1.0×" });
    // On Claude Sonnet 4.5's price ($3 per million input tokens).
    figures.push({
      name: `${name}: input dollars on Claude Sonnet 4.5`,
      value: (lathe.billed * 3) / 1e6,
      baseline: "uncached",
      baselineValue: (uncached.billed * 3) / 1e6,
      unit: "$",
      note: `OpenCode's scheme $${((openCode.billed * 3) / 1e6).toFixed(3)}`,
    });
  }

  // Idle gaps longer than the 5-minute TTL (a user reading, a queue): the 1-hour TTL writes at 2×
  // but is still there when the next prompt comes.
  const gapMs = 10 * 60_000;
  const hour = billedUnder((await runCodingSession(dir, SESSIONS[0]!.turns, { cache: "1h", gapMs })).requests, (body) => body);
  const fiveMinutes = billedUnder((await runCodingSession(dir, SESSIONS[0]!.turns, { gapMs })).requests, (body) => body);
  figures.push({
    name: "35-step session, 10-minute gaps between turns: cache: \"1h\"",
    value: hour.billed,
    baseline: "default 5-minute TTL",
    baselineValue: fiveMinutes.billed,
    unit: "token-units",
    note: `${(hour.billed / hour.uncached).toFixed(2)}× and ${(fiveMinutes.billed / fiveMinutes.uncached).toFixed(2)}× uncached`,
  });

  // The per-request cost of the markers, over the 200-step session's provider-level prompts.
  const prompts = await capturePrompts(dir, SESSIONS[1]!.turns);
  const anthropic = createAnthropic({ apiKey: "bench" })("claude-sonnet-4-5");
  const { carrier } = providerCaching(anthropic, "5m");
  const plan = { carrier: carrier!, minTokens: DEFAULT_CACHE_MIN_TOKENS };
  const markers = perRequestMicros(prompts, (p) => placeBreakpoints(p, plan));
  const serialise = perRequestMicros(prompts, (p) => JSON.stringify(p.prompt));
  figures.push({
    name: `placing breakpoints, per request (${prompts.length} requests of the 200-step session)`,
    value: markers,
    baseline: "JSON.stringify of the prompt",
    baselineValue: serialise,
    unit: "µs",
  });
} finally {
  rmSync(dir, { recursive: true, force: true });
}
report(import.meta.url, figures);

/** The provider-level call options of each request of a session, as the provider got them (caching off: unmarked). */
async function capturePrompts(dir: string, turns: number[]): Promise<LanguageModelV4CallOptions[]> {
  const captured: LanguageModelV4CallOptions[] = [];
  await runCodingSession(dir, turns, {
    cache: false,
    // A recording middleware in front of the provider: what it sees is what the provider is given.
    wrap: (model) =>
      wrapLanguageModel({
        model,
        middleware: {
          specificationVersion: "v4",
          transformParams: async ({ params }) => {
            captured.push(params);
            return params;
          },
        },
      }),
  });
  return captured;
}

/** The median time of `fn` over each prompt, in µs (each prompt timed over 20 runs after a warm-up). */
function perRequestMicros(prompts: LanguageModelV4CallOptions[], fn: (p: LanguageModelV4CallOptions) => unknown): number {
  const times: number[] = [];
  for (const prompt of prompts) {
    fn(prompt);
    const start = performance.now();
    for (let i = 0; i < 20; i++) fn(prompt);
    times.push(((performance.now() - start) / 20) * 1000);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}
