import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fromConfig } from "../config.js";
import type { PermissionMode } from "../mode.js";
import { analyzeCommand } from "./analyze.js";
import { generateCommands } from "./shell-grammar.js";
import { type Decision, decideAnalysis } from "./test-decide.js";

const options = { cwd: "/home/u/ws", home: "/home/u" };
const denyList = fromConfig({
  bash: { "*": "allow", "rm *": "deny", "git push *": "deny", "curl *": "deny", "mv *": "ask" },
  edit: { "*": "allow", "secrets/*": "deny" },
  external_directory: "ask",
});
const STRICTNESS: Record<Decision, number> = { allow: 0, ask: 1, deny: 2 };
const MODES: PermissionMode[] = ["default", "acceptEdits", "bypass"];

describe("opacity never loosens a decision (property)", () => {
  it("a generated command decided under a deny-list is never more permissive with its analysis made opaque, in every mode", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 2 ** 31 - 1 }), fc.constantFrom(...MODES), async (seed, mode) => {
        const [command] = generateCommands(seed, 1);
        const analysis = await analyzeCommand(command!, options);
        const plain = await decideAnalysis(analysis, denyList, mode);
        const opaque = await decideAnalysis({ ...analysis, opaque: true, always: [] }, denyList, mode);
        expect(STRICTNESS[opaque]).toBeGreaterThanOrEqual(STRICTNESS[plain]);
        // Deny and ask rules exist for bash: an opaque command is never run unasked, bypass included.
        expect(opaque).not.toBe("allow");
        if (analysis.opaque) expect(plain).not.toBe("allow");
      }),
      { numRuns: 300, seed: 29 },
    );
  });
});
