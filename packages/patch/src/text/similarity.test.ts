import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { boundedLevenshtein, similarity } from "./similarity.js";

function levenshtein(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++)
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
  return d[a.length]![b.length]!;
}

describe("boundedLevenshtein", () => {
  it("equals the full distance when within the limit, and exceeds the limit otherwise", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 20 }), fc.string({ maxLength: 20 }), fc.nat(25), (a, b, limit) => {
        const full = levenshtein(a, b);
        const bounded = boundedLevenshtein(a, b, limit);
        if (full <= limit) expect(bounded).toBe(full);
        else expect(bounded).toBeGreaterThan(limit);
      }),
      { numRuns: 500 },
    );
  });

  it("scores similarity between 0 and 1", () => {
    expect(similarity("abc", "abc")).toBe(1);
    expect(similarity("", "")).toBe(1);
    expect(similarity("kitten", "sitting")).toBeCloseTo(1 - 3 / 7);
    expect(similarity("kitten", "sitting", 0.9)).toBe(0);
  });
});
