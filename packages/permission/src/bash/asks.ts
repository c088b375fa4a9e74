import type { CommandAnalysis } from "./analyze.js";
import { externalDirectoryPattern } from "./paths.js";

/** One `ask` to make: the fields of `AskInput` that depend on what is asked. */
export interface AskSpec {
  /** The permission to ask. */
  permission: string;
  /** The patterns to evaluate and, where undecided, ask about. */
  patterns: string[];
  /** What an `always` reply approves. */
  always: string[];
  /** Ask even where allow rules match (deny rules still apply). */
  opaque?: boolean;
}

/**
 * The asks a bash call makes, in order: first `external_directory` for the outside directories
 * (pattern and `always` = `<dir>/*`), then `bash` for the simple commands with their `always`
 * prefixes. An opaque command is asked as a whole: `opaque: true` (allow rules and session approvals
 * are ignored, deny rules still apply) and no `always` patterns, so it never rides on a prefix rule.
 *
 * ```ts
 * for (const spec of bashAsks(await analyzeCommand(command, { cwd }))) {
 *   await permissions.ask({ ...spec, sessionID, tool, metadata: { command }, ruleset, signal });
 * }
 * ```
 */
export function bashAsks(analysis: CommandAnalysis): AskSpec[] {
  const asks: AskSpec[] = [];
  if (analysis.externalDirectories.length > 0) {
    const globs = analysis.externalDirectories.map(externalDirectoryPattern);
    asks.push({ permission: "external_directory", patterns: globs, always: [...globs] });
  }
  if (analysis.patterns.length > 0) {
    asks.push(
      analysis.opaque
        ? { permission: "bash", patterns: [...analysis.patterns], always: [], opaque: true }
        : { permission: "bash", patterns: [...analysis.patterns], always: [...analysis.always] },
    );
  }
  return asks;
}
