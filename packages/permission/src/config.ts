import { homedir } from "node:os";
import { z } from "zod";
import { Action, type Ruleset } from "./rule.js";

/**
 * The OpenCode-compatible config form: per permission either one action for everything, or an
 * object of pattern → action, in order. `{ bash: "ask", edit: { "*": "allow", "*.env": "deny" } }`.
 */
export const PermissionConfig = z.record(z.string(), z.union([Action, z.record(z.string(), Action)]));
/** The OpenCode-compatible config form; see {@link PermissionConfig}. */
export type PermissionConfig = z.infer<typeof PermissionConfig>;

/** Options of {@link fromConfig}. */
export interface FromConfigOptions {
  /** The directory `~` and `$HOME` expand to. Default: `os.homedir()`. */
  home?: string;
}

/**
 * Turns the config form into a ruleset, keeping key order (JavaScript orders integer-like keys such as
 * `"10"` first — avoid them as permission names or patterns). A bare action becomes pattern `*`.
 * In patterns, a leading `~`, `~/`, `$HOME` or `${HOME}` expands to the home directory.
 * Throws a `ZodError` when the config is not in this form.
 */
export function fromConfig(config: PermissionConfig, options: FromConfigOptions = {}): Ruleset {
  const parsed = PermissionConfig.parse(config);
  const home = options.home ?? homedir();
  const rules: Ruleset = [];
  for (const [permission, value] of Object.entries(parsed)) {
    if (typeof value === "string") {
      rules.push({ permission, pattern: "*", action: value });
      continue;
    }
    for (const [pattern, action] of Object.entries(value)) {
      rules.push({ permission, pattern: expandHome(pattern, home), action });
    }
  }
  return rules;
}

/** Expands a leading `~`, `~/`, `$HOME` or `${HOME}` in a pattern to `home`; other text is unchanged. */
export function expandHome(pattern: string, home: string = homedir()): string {
  if (pattern === "~") return home;
  if (pattern.startsWith("~/")) return home + pattern.slice(1);
  for (const variable of ["${HOME}", "$HOME"]) {
    if (pattern === variable) return home;
    if (pattern.startsWith(`${variable}/`)) return home + pattern.slice(variable.length);
  }
  return pattern;
}
