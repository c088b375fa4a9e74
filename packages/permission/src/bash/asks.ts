import { relative, sep } from "node:path";
import type { CommandAnalysis } from "./analyze.js";
import { externalDirectoryPattern, isInside, outsideDirectory } from "./paths.js";

/** One `ask` to make: the fields of `AskInput` that depend on what is asked. */
export interface AskSpec {
  /** The permission to ask. */
  permission: string;
  /** The patterns to evaluate and, where undecided, ask about. */
  patterns: string[];
  /** Per pattern, other spellings that deny and ask rules are checked against too (bash only). */
  variants?: string[][];
  /** What an `always` reply approves. */
  always: string[];
  /** Ask even where allow rules match (deny rules still apply). */
  opaque?: boolean;
}

/**
 * The asks a bash call makes, in order: `external_directory` for the folders outside the workspace
 * that `analysis.paths` reach (pattern and `always` = `<dir>/*`); `bash` for the simple commands,
 * with their other spellings as `variants` and their `always` prefixes; `edit` for the files the
 * command writes (redirection targets, `tee` operands), workspace-relative inside the workspace and
 * absolute outside. An opaque command is asked as a whole: `opaque: true` (allow rules and session
 * approvals are ignored, deny rules still apply) and no `always` patterns.
 *
 * The outside check uses `analysis.paths` as given: a caller that resolves them through symlinks
 * first (as the `bash` tool does) gets asks for where the paths really lead.
 *
 * ```ts
 * for (const spec of bashAsks(await analyzeCommand(command, { cwd }))) {
 *   await permissions.ask({ ...spec, sessionID, tool, metadata: { command }, ruleset, signal });
 * }
 * ```
 */
export function bashAsks(analysis: CommandAnalysis): AskSpec[] {
  const asks: AskSpec[] = [];
  const { workspace } = analysis;
  const outside = new Set<string>();
  for (const use of analysis.paths) {
    const directory = outsideDirectory(workspace, use.path, use.directory);
    if (directory) outside.add(externalDirectoryPattern(directory));
  }
  if (outside.size > 0) asks.push({ permission: "external_directory", patterns: [...outside], always: [...outside] });
  if (analysis.patterns.length > 0) {
    const variants = analysis.patterns.map((_, i) => [...(analysis.variants[i] ?? [])]);
    asks.push(
      analysis.opaque
        ? { permission: "bash", patterns: [...analysis.patterns], variants, always: [], opaque: true }
        : { permission: "bash", patterns: [...analysis.patterns], variants, always: [...analysis.always] },
    );
  }
  const written = [...new Set(analysis.paths.filter((use) => use.write).map((use) => editPattern(workspace, use.path)))];
  if (written.length > 0) asks.push({ permission: "edit", patterns: written, always: [...written] });
  return asks;
}

/** The `edit` pattern of a written path: relative to the workspace (`/`-separated) inside it, absolute outside. */
function editPattern(workspace: string, path: string): string {
  if (!isInside(workspace, path)) return path.split(sep).join("/");
  return relative(workspace, path).split(sep).join("/") || ".";
}
