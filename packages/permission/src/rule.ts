import { z } from "zod";

/** What a rule decides: run without asking, ask the host, or refuse. */
export const Action = z.enum(["allow", "ask", "deny"]);
/** What a rule decides: run without asking, ask the host, or refuse. */
export type Action = z.infer<typeof Action>;

/**
 * One permission rule. `permission` names what is being done (`bash`, `edit`, `read`,
 * `external_directory`, `mcp_*`…) and `pattern` what it is done to (a command, a path); both are
 * wildcards (see the package README). The last rule whose permission and pattern both match decides.
 */
export const Rule = z.object({
  permission: z.string(),
  pattern: z.string(),
  action: Action,
});
/** One permission rule; see {@link Rule}. */
export type Rule = z.infer<typeof Rule>;

/** An ordered list of rules. Later rules override earlier ones. */
export const Ruleset = z.array(Rule);
/** An ordered list of rules. Later rules override earlier ones. */
export type Ruleset = z.infer<typeof Ruleset>;
