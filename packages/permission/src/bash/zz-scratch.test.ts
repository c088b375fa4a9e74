import { it } from "vitest";
import { fromConfig } from "../config.js";
import { analyzeCommand } from "./analyze.js";
import { toSubset } from "./subset.js";
import { decide } from "./test-decide.js";
const options = { cwd: "/home/u/ws", home: "/home/u" };
const stars = `${"*a".repeat(200)}*`;
const denyList = fromConfig({ bash: { "*": "allow", "rm *": "deny", [stars]: "deny", "git push *": "deny" } });
it("t", async () => {
  await analyzeCommand("ls", options);
  for (const command of [`echo ${"a".repeat(100 * 1024)}`, "rm x; ".repeat(20_000), "echo $(ls);".repeat(9_000)]) {
    for (let k = 0; k < 3; k++) {
    let t = performance.now();
    toSubset(command, "/h");
    const t0 = performance.now() - t; t = performance.now();
    const a = await analyzeCommand(command, options);
    const t1 = performance.now() - t; t = performance.now();
    await decide(command, denyList, options);
    const t2 = performance.now() - t;
    console.log("TIMES", command.slice(0, 10), t0.toFixed(1), t1.toFixed(1), t2.toFixed(1), a.opaque, a.patterns.length);
    }
  }
});
