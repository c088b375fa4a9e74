import { evaluateCatchAll } from "./catch-all.js";
import type { Rule } from "./rule.js";

/** Tools that change files; they all ask the one `edit` permission. */
export const EDIT_TOOLS: readonly string[] = Object.freeze(["edit", "write", "multiedit", "apply_patch", "patch"]);

/** The permission a tool asks: `edit` for the file-changing tools, otherwise the tool's own name. */
export function permissionForTool(toolName: string): string {
  return EDIT_TOOLS.includes(toolName) ? "edit" : toolName;
}

/**
 * The tools not to offer the model at all: those whose permission is denied for every pattern — the
 * latest catch-all (`*`) rule for the permission is `deny` and no later rule for it allows or asks.
 * (`{ "*": "deny", bash: "allow" }` keeps bash; `{ edit: { "*": "deny", "docs/*": "allow" } }` keeps
 * the edit tools, since some edits are allowed.)
 */
export function disabled(toolNames: Iterable<string>, ...rulesets: readonly (readonly Rule[])[]): Set<string> {
  const result = new Set<string>();
  for (const tool of toolNames) {
    if (evaluateCatchAll(permissionForTool(tool), rulesets) === "deny") result.add(tool);
  }
  return result;
}
