// Scores replace() on the corpus: each case is right (the expected file or the expected refusal),
// refused when it should have applied (safe, but a miss), or wrong: a file written other than
// expected — a wrong-block replacement, the failure that must never happen.
import { ReplaceError } from "../../errors.js";
import { replace } from "../replace.js";
import type { Category, EditCase } from "./helpers.js";

/** How one case came out. */
export type Outcome = "right" | "refused" | "wrong";

/** Runs one case. */
export function runCase(c: EditCase): { outcome: Outcome; detail: string } {
  let content: string;
  try {
    content = replace(c.file, c.search, c.replacement, { replaceAll: c.replaceAll ?? false }).content;
  } catch (error) {
    if (!(error instanceof ReplaceError)) return { outcome: "wrong", detail: `threw ${String(error)}` };
    if ("refuse" in c.expect && error.code === c.expect.refuse) return { outcome: "right", detail: error.code };
    return { outcome: "refused", detail: `${error.code}: ${error.message}` };
  }
  if ("content" in c.expect && content === c.expect.content) return { outcome: "right", detail: "applied" };
  return { outcome: "wrong", detail: JSON.stringify(content) };
}

/** Per category: cases, right, refused, wrong. */
export function scoreCorpus(cases: readonly EditCase[]): Map<Category, { cases: number; right: number; refused: number; wrong: number }> {
  const score = new Map<Category, { cases: number; right: number; refused: number; wrong: number }>();
  for (const c of cases) {
    const s = score.get(c.category) ?? { cases: 0, right: 0, refused: 0, wrong: 0 };
    s.cases++;
    s[runCase(c).outcome]++;
    score.set(c.category, s);
  }
  return score;
}
