// The shell analyser against bash itself: generated commands (a seeded grammar, thousands per run)
// and the corpus of bypasses found so far run under real bash with every program replaced by a
// logging shim (see shell-oracle.ts). The analysis is sound when, for every command it does not call
// opaque, each program bash ran is among its patterns or their spellings and each path bash wrote is
// among its written paths (resolved through symlinks as the kernel walks them).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { generateCommands } from "../packages/permission/src/bash/shell-grammar.js";
import { check } from "./shell-oracle.js";

const SEED = Number(process.env.LATHE_DIFF_SEED ?? 20261126);
const COUNT = Number(process.env.LATHE_DIFF_CASES ?? 2000);
const bypasses = JSON.parse(readFileSync(new URL("./fixtures/shell-bypasses.json", import.meta.url), "utf8")) as { cases: { command: string; why: string }[] };

describe("the shell analyser against bash (differential)", () => {
  it(`${COUNT} generated commands (seed ${SEED}) and the corpus of found bypasses: nothing runs or is written that a non-opaque analysis left out`, async () => {
    const commands = [...bypasses.cases.map((c) => c.command), ...generateCommands(SEED, COUNT)];
    const started = performance.now();
    const result = await check(commands);
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `differential: ${commands.length} commands in ${seconds.toFixed(1)} s (${(commands.length / seconds).toFixed(0)}/s); ` +
        `${result.opaque} opaque, ${result.programs} programs run, ${result.writes} paths written`,
    );
    expect(result.failures.slice(0, 10)).toEqual([]);
    // Not vacuous: bash ran programs and wrote files, and most commands were judged, not refused.
    expect(result.programs).toBeGreaterThan(commands.length / 2);
    expect(result.writes).toBeGreaterThan(commands.length / 20);
    expect(commands.length - result.opaque).toBeGreaterThan(commands.length / 4);
  }, 240_000);
});
