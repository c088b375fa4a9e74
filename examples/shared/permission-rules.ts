// The one set of rules the CLI, the HTTP server and the web examples give their agents, so the same
// request is asked the same way whichever front end makes it.
import { PLAN_FILES, type AgentOptions } from "@lathe/core";

/**
 * Edits and shell commands ask before they run, but for a few read-only commands; web fetches ask.
 * Given as the agent-wide `permission`, so they bind every agent — subagents (`general`, `explore`)
 * included, which a model can delegate to and a client must not escape to.
 */
export const EXAMPLE_PERMISSION = {
  edit: "ask",
  bash: { "*": "ask", "ls*": "allow", pwd: "allow", "cat *": "allow", "git status*": "allow", "git diff*": "allow", "git log*": "allow" },
  webfetch: "ask",
} satisfies NonNullable<AgentOptions["permission"]>;

/**
 * The rules the examples pass to `createAgent`: {@link EXAMPLE_PERMISSION} for every agent, and
 * plan mode kept as strict as its own rules are (agent-wide rules come after an agent's own, so plan
 * restates them: only plan files may be written, every command asks).
 */
export function examplePermissions(): Pick<AgentOptions, "permission" | "agents"> {
  return {
    permission: EXAMPLE_PERMISSION,
    agents: { plan: { permission: { edit: { "*": "deny", [PLAN_FILES]: "allow" }, bash: "ask" } } },
  };
}
