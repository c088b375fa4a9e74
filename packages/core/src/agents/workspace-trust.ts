import { z } from "zod";

/**
 * Whether the host trusts the workspace (`createAgent({ trust })`), as editors ask before they open a
 * folder. `untrusted` (the default): nothing the repository controls runs or is loaded without an
 * ask — formatters and language servers come from the host's PATH or Lathe's own dependencies (never
 * the repository's `node_modules`, virtualenvs or configs that execute code), and project commands
 * cannot pick their agent. `trusted`: the repository's own tools run, as in an editor that trusts it.
 */
export const WorkspaceTrustSchema = z.enum(["untrusted", "trusted"]);

/** See {@link WorkspaceTrustSchema}. */
export type WorkspaceTrust = z.infer<typeof WorkspaceTrustSchema>;

/** Whether `trust` (an `AgentOptions.trust`, possibly absent) says the workspace is trusted. */
export function isTrusted(trust: WorkspaceTrust | undefined): boolean {
  return trust === "trusted";
}
