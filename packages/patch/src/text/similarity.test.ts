import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { replace } from "../replace/replace.js";
import { refusal } from "../replace/expect-refusal.js";
import { boundedLevenshtein, cellBudget, measureDistance, pairDistanceFloor, similarity } from "./similarity.js";

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

describe("measureDistance (bounded by a cell budget)", () => {
  const text = fc.string({ unit: fc.constantFrom("a", "b", "c", " "), maxLength: 40 });

  it("is the exact distance whenever it is determined, and never claims more than it knows", () => {
    fc.assert(
      fc.property(text, text, fc.nat(45), fc.nat(400), (a, b, limit, cells) => {
        const full = levenshtein(a, b);
        const measured = measureDistance(a, b, limit, cellBudget(cells));
        if ("undetermined" in measured) expect(full).toBeGreaterThan(measured.above);
        else if (full <= limit) expect(measured.distance).toBe(full);
        else expect(measured.distance).toBeGreaterThan(limit);
      }),
      { numRuns: 500 },
    );
  });

  it("bounds the distance from below by the character pairs not shared (q-gram lemma)", () => {
    fc.assert(
      fc.property(text, text, (a, b) => {
        expect(pairDistanceFloor(a, b)).toBeLessThanOrEqual(levenshtein(a, b));
      }),
      { numRuns: 500 },
    );
  });

  it("spends what it computes: a budget too small leaves a long comparison undetermined", () => {
    // One character moved from the front to the back of 4,000: distance 2, past the free band's cost.
    const a = "xy".repeat(2000);
    const b = `${a.slice(1)}x`;
    expect(measureDistance(a, b, 4000, cellBudget(1000))).toMatchObject({ undetermined: true });
    expect(measureDistance(a, b, 4000, cellBudget(1e9))).toEqual({ distance: 2 });
  });
});

describe("long lines (issue 33)", () => {
  const line = (n: number, seed: number): string => Array.from({ length: n }, (_, i) => String.fromCharCode(97 + ((i * seed + ((i * i) % 7)) % 26))).join("");
  const long = line(100_000, 7919);
  const file = `// top\n${long}\n// end\n`;

  it("refuses a stale edit of a 100,000-character line quickly, with the near miss, whatever the shape", () => {
    const shapes = {
      oneChar: `${long.slice(0, 50_000)}X${long.slice(50_001)}`,
      scattered: [...long].map((c, i) => (i % 97 === 0 ? "Z" : c)).join(""),
      halfRewritten: long.slice(0, 50_000) + line(50_000, 13),
      other: line(100_000, 31),
    };
    refusal(() => replace(file, shapes.oneChar, "x")); // warm-up: the first call also compiles the code
    for (const [name, search] of Object.entries(shapes)) {
      const start = performance.now();
      const error = refusal(() => replace(file, search, "x"));
      const ms = performance.now() - start;
      expect(error.code, name).toBe("not_found");
      // ≈ 10–20 ms on an idle machine (bench/patch.bench.ts); the quadratic search took minutes here.
      // The bound leaves a loaded 2-core CI runner its margin and still fails any quadratic cost.
      expect(ms, name).toBeLessThan(1500);
      if (name !== "other") expect(error.nearMiss?.startLine, name).toBe(2);
    }
  });

  it("refuses, naming the block, when a scored matcher cannot afford to compare long middle lines", () => {
    const blockFile = `start {\n${long}\n}\n`;
    const error = refusal(() => replace(blockFile, `start {\n${line(100_000, 17)}\n}`, "start {\n}"));
    expect(error.code).toBe("not_found");
    expect(error.message).toMatch(/could not compare it with the block at line 1/);
  });

  it("refuses a long prose line that is not there with a ReplaceError, and finds one inside a line with other spacing", () => {
    const words = Array.from({ length: 14_000 }, (_, i) => `w${(i * 7919) % 1000}`).join(" ");
    const prose = `intro\n${words}\noutro\n`;
    // Built as one pattern from the search, this once exceeded the regular-expression engine's size limit (a SyntaxError).
    expect(refusal(() => replace(prose, words.replace("w500", "w5000"), "x")).code).toBe("not_found");
    const inside = `intro\nsay: ${words} (end)\noutro\n`;
    const spaced = words.replace(/ /g, "  ");
    expect(replace(inside, spaced, "short").content).toBe("intro\nsay: short (end)\noutro\n");
  });

  it("still applies an exact or near-exact edit of a long line", () => {
    expect(replace(file, long, "short").content).toBe("// top\nshort\n// end\n");
    expect(replace(file, `  ${long}   `, "short").content).toBe("// top\nshort\n// end\n");
  });
});
