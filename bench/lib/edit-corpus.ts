// The edit-accuracy corpus of @lathe/patch scored by category, as benchmark figures. The corpus is
// test source, not part of the package's API, so it is bundled from packages/patch/src with esbuild
// (the build tool tsup already uses) into a temporary module and loaded from there. Besides the
// scores: the slowest case of the whole corpus (each case one replace() call, median CPU time of 3,
// so a loaded machine does not decide which case is slowest), beside the corpus's median case.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";
import { medianCpuMs } from "./cpu-time.ts";
import type { BenchFigure } from "./report.ts";

interface CategoryScore {
  cases: number;
  right: number;
  refused: number;
  wrong: number;
}

const corpusDir = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "packages", "patch", "src", "replace", "corpus");

/** One figure per category (cases right), then the corpus total with its wrong-block count. */
export async function corpusFigures(): Promise<BenchFigure[]> {
  const out = mkdtempSync(join(tmpdir(), "lathe-bench-corpus-"));
  try {
    const bundled = await build({
      stdin: { contents: 'export { EDIT_CORPUS } from "./edit-corpus.ts"; export { runCase, scoreCorpus } from "./score.ts";', resolveDir: corpusDir, loader: "ts" },
      bundle: true,
      format: "esm",
      platform: "node",
      write: false,
    });
    const file = join(out, "corpus.mjs");
    writeFileSync(file, bundled.outputFiles[0]!.text);
    const { EDIT_CORPUS, runCase, scoreCorpus } = (await import(pathToFileURL(file).href)) as {
      EDIT_CORPUS: Array<{ name: string; category: string }>;
      runCase: (c: unknown) => unknown;
      scoreCorpus: (cases: unknown[]) => Map<string, CategoryScore>;
    };
    const score = scoreCorpus(EDIT_CORPUS);
    const figures: BenchFigure[] = [...score.entries()].map(([category, s]) => ({
      name: `edit corpus: ${category} (${s.cases} cases)`,
      value: (100 * s.right) / s.cases,
      unit: "% right",
      target: "100%, 0 wrong",
      note: `${s.right} right, ${s.refused} refused where they should apply, ${s.wrong} wrong-block replacements`,
    }));
    const total = [...score.values()].reduce((t, s) => ({ cases: t.cases + s.cases, right: t.right + s.right, refused: t.refused + s.refused, wrong: t.wrong + s.wrong }));
    figures.push({
      name: "edit corpus: wrong-block replacements",
      value: total.wrong,
      unit: "cases",
      target: "0",
      note: `${total.right} of ${total.cases} cases right, ${total.refused} refused where they should apply`,
    });
    const times: Array<[number, string]> = [];
    for (const c of EDIT_CORPUS) times.push([medianCpuMs(() => runCase(c), 3), `${c.category}: ${c.name}`]);
    times.sort((a, b) => a[0] - b[0]);
    const [worst, worstName] = times[times.length - 1]!;
    figures.push({
      name: `edit corpus: worst case of ${times.length} (one replace() call, CPU ms)`,
      value: worst,
      baseline: "the corpus's median case",
      baselineValue: times[Math.floor(times.length / 2)]![0],
      target: "< 100 ms per call",
      note: `worst: ${worstName}; next: ${times[times.length - 2]![1]} ${times[times.length - 2]![0].toFixed(1)} ms`,
    });
    return figures;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}
