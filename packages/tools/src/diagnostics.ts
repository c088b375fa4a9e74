import { z } from "zod";
import type { ToolContext } from "./tool.js";

/** One problem a language server reports in a file. Lines and columns are 1-based. */
export const DiagnosticSchema = z.object({
  /** Absolute path of the file. */
  path: z.string(),
  line: z.number().int().positive(),
  column: z.number().int().positive(),
  endLine: z.number().int().positive(),
  endColumn: z.number().int().positive(),
  severity: z.enum(["error", "warning", "information", "hint"]),
  message: z.string(),
  /** The server's code for the problem, e.g. `2322` for TypeScript's TS2322. */
  code: z.union([z.string(), z.number()]).optional(),
  /** Who reported it, e.g. `typescript`, `Pyright`. */
  source: z.string().optional(),
});

/** One problem a language server reports; see {@link DiagnosticSchema}. */
export type Diagnostic = z.infer<typeof DiagnosticSchema>;

/** What {@link Diagnostics.sync} and {@link Diagnostics.current} found. */
export interface DiagnosticsReport {
  /** Diagnostics by absolute path: the files asked about, and every other file a server reports on. */
  files: Record<string, Diagnostic[]>;
  /**
   * Diagnostics of the other files as they were before the sync, so that a caller can tell the
   * problems a change introduced elsewhere (a renamed export breaking an importer) from old ones.
   */
  before: Record<string, Diagnostic[]>;
  /** Notes for the model: a server switched off after crashes, one that did not answer in time. */
  notes: string[];
}

/** A file's content as the project's formatter leaves it. */
export interface FormattedContent {
  content: string;
  /** The formatter that ran, e.g. `prettier`. */
  formatter: string;
}

/**
 * Where a {@link Diagnostics} call works: the workspace root, and whether the host trusts it
 * ({@link ToolContext.trusted}). An implementation runs nothing the repository controls (its
 * `node_modules` binaries, virtualenvs, configs that execute code) unless `trusted` is true, and
 * searches nothing above `cwd`.
 */
export interface DiagnosticsWorkspace {
  cwd: string;
  /** Default false: untrusted. */
  trusted?: boolean;
  signal?: AbortSignal;
}

/**
 * What the file-changing tools need from language servers and formatters. `@lathe/lsp`'s
 * `createLsp()` implements it; the agent hands it to tools as {@link ToolContext.diagnostics}.
 * Every method is bounded in time and honours its signal: a slow or broken server costs a tool a
 * few seconds at most, never a hang.
 */
export interface Diagnostics {
  /**
   * Tells the servers that `files` (absolute paths) changed on disk (a file no longer there is
   * closed and its diagnostics dropped), waits (bounded) for their diagnostics, and returns them. `related` also opens files that may depend on them (importers),
   * so that problems a change causes there are reported.
   */
  sync(files: string[], options: DiagnosticsWorkspace & { related?: boolean }): Promise<DiagnosticsReport>;
  /** Current diagnostics of `file` (opened and checked if needed), or of every open file when absent. */
  current(options: DiagnosticsWorkspace & { file?: string }): Promise<DiagnosticsReport>;
  /** Formats `content` of `file` with the project's formatter; `undefined` when it has none for the file. */
  format(file: string, content: string, options: DiagnosticsWorkspace): Promise<FormattedContent | undefined>;
  /** What the system prompt says about diagnostics, or `undefined` when no server is on. */
  prompt(): string | undefined;
  /** Stops every server and formatter process. */
  close(): Promise<void>;
}
