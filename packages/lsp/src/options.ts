import { z } from "zod";
import { FormatterConfigSchema } from "./formatters.js";
import { ServerConfigSchema } from "./servers.js";

/** Options of {@link createLsp}. */
export const LspOptionsSchema = z.object({
  /**
   * Language servers by id: a built-in (`typescript`, `pyright`, `gopls`, `rust-analyzer`) replaced by
   * the host's config or switched off with `false`, or a server of the host's own.
   */
  servers: z.record(z.string(), z.union([ServerConfigSchema, z.literal(false)])).optional(),
  /**
   * Formatters by name: a built-in (`prettier`, `ruff`, `black`, `gofmt`, `rustfmt`) switched off with
   * `false`, or a host command for some extensions. `false` switches all formatting off.
   */
  formatters: z.union([z.literal(false), z.record(z.string(), z.union([FormatterConfigSchema, z.literal(false)]))]).optional(),
  /** The longest a tool waits for diagnostics after a write, in ms (server start included); default 5,000. */
  timeoutMs: z.number().int().positive().optional(),
  /** Quiet time after the last published diagnostics before they count as settled, in ms; default 150. */
  settleMs: z.number().int().nonnegative().optional(),
  /** The longest a server may take to initialise before it counts as hung, in ms; default 45,000. */
  startTimeoutMs: z.number().int().positive().optional(),
  /** Wait before the one restart of a crashed server, in ms; default 1,000. */
  restartDelayMs: z.number().int().nonnegative().optional(),
  /** The longest a formatter may run, in ms; default 10,000. */
  formatTimeoutMs: z.number().int().positive().optional(),
  /** Files that may depend on a written file which `write` opens to report new errors in them; default 10. */
  maxRelatedFiles: z.number().int().nonnegative().optional(),
});

/** Options of {@link createLsp}; see {@link LspOptionsSchema}. */
export type LspOptions = z.input<typeof LspOptionsSchema>;
