import { it } from "vitest";
import { replace } from "../src/index.js";
it("perf", () => {
  const lines: string[] = [];
  for (let i = 0; lines.length < 5000; i++) {
    lines.push(`function handler() {`, `  const value = compute(${i % 3}, "x");`, `  if (value > 0) {`, `    return value;`, `  }`, `  return 0;`, `}`, ``);
  }
  const file = lines.join("\n") + "\n";
  const cases: Array<[string, string, string]> = [
    ["dup exact", `  const value = compute(1, "x");\n  if (value > 0) {`, "x"],
    ["typo block", `function handler() {\n  const valeu = compute(7, "x");\n  if (value > 0) {\n    return value;\n  }\n  return 0;\n}`, "x"],
    ["prefixed stale", Array.from({ length: 7 }, (_, k) => `${String(k + 10).padStart(6)}\t${["function handler() {", "  const value = compute(9, \"y\");", "  if (value < 0) {", "    return value;", "  }", "  return 1;", "}"][k]}`).join("\n"), "x"],
    ["escaped stale", `function handler() {\\n  const value = compute(9, \\"x\\");\\n  return 2;\\n}`, "x"],
    ["not there 50", Array.from({ length: 50 }, (_, k) => k === 0 ? "function handler() {" : k === 49 ? "}" : `  let other${k} = different(${k});`).join("\n"), "x"],
    ["indent 2 vs 4 dup", `if (value > 0) {\n    return value;\n}`, "x"],
  ];
  for (const [name, s, r] of cases) {
    let best = Infinity; let res = "";
    for (let k = 0; k < 3; k++) {
      const t0 = performance.now();
      try { const x = replace(file, s, r); res = "OK " + x.matcher; } catch (e: any) { res = "ERR " + e.code; }
      best = Math.min(best, performance.now() - t0);
    }
    console.log(name, res, best.toFixed(1), "ms");
  }
});
