// Test helper (not exported from the package): the outcome of a bash call under a ruleset.
import { DeniedError } from "../errors.js";
import type { Rule } from "../rule.js";
import { PermissionService } from "../service.js";
import type { PermissionMode } from "../mode.js";
import { analyzeCommand, type AnalyzeCommandOptions, type CommandAnalysis } from "./analyze.js";
import { bashAsks } from "./asks.js";

/** What the permission engine decides for a bash call: refused, asked (the host was asked), or run unasked. */
export type Decision = "allow" | "ask" | "deny";

/** Runs every ask of `command` through a fresh service whose host answers "once", and reports the outcome. */
export async function decide(command: string, ruleset: readonly Rule[], options: AnalyzeCommandOptions, mode?: PermissionMode): Promise<Decision> {
  return decideAnalysis(await analyzeCommand(command, options), ruleset, mode);
}

/** What the permission engine decides for an analysis (as `bashAsks` turns it into asks) under a mode. */
export async function decideAnalysis(analysis: CommandAnalysis, ruleset: readonly Rule[], mode?: PermissionMode): Promise<Decision> {
  let asked = false;
  const service = new PermissionService({
    approve: () => {
      asked = true;
      return "once";
    },
  });
  try {
    for (const spec of bashAsks(analysis)) await service.ask({ ...spec, sessionID: "s", ruleset, ...(mode ? { mode } : {}) });
  } catch (error) {
    if (error instanceof DeniedError) return "deny";
    throw error;
  }
  return asked ? "ask" : "allow";
}
