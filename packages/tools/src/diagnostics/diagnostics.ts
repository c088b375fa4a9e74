import { z } from "zod";
import type { Diagnostic } from "../diagnostics.js";
import { diagnosticLine, displayPath, ERRORS_PER_FILE } from "../diagnostics-text.js";
import { defineTool, type Tool } from "../tool.js";
import { permissionPath, resolveToolPath } from "../workspace-path.js";
import { withheldDiagnosticsNote, withholdUnreadable } from "./readable.js";
import description from "./diagnostics.txt?raw";

const DiagnosticsParameters = z.object({
  path: z.string().optional().describe("The file to check; leave out for every open file"),
});

/** Metadata of a `diagnostics` result. */
export interface DiagnosticsMetadata extends Record<string, unknown> {
  /** Diagnostics by absolute path. */
  diagnostics: Record<string, Diagnostic[]>;
  errors: number;
  warnings: number;
}

const SEVERITY_ORDER = { error: 0, warning: 1, information: 2, hint: 3 } as const;
/** Problems listed per file (errors and warnings; information and hints are left out). */
const SHOWN_PER_FILE = ERRORS_PER_FILE * 2;

/** Creates the read-only `diagnostics` tool: the language servers' current problems of a file or of the open files. */
export function createDiagnosticsTool(): Tool<typeof DiagnosticsParameters, DiagnosticsMetadata> {
  return defineTool({
    name: "diagnostics",
    description,
    parameters: DiagnosticsParameters,
    readOnly: true,
    async execute(args, ctx) {
      if (!ctx.diagnostics) {
        return { title: "diagnostics", output: "No language servers are running for this agent: diagnostics are unavailable.", metadata: { diagnostics: {}, errors: 0, warnings: 0 } };
      }
      const target = args.path === undefined ? undefined : await resolveToolPath(ctx, args.path);
      // What a server says of a file quotes it: asked like a read of its real path, before any server is touched.
      if (target) await ctx.ask({ permission: "read", patterns: [permissionPath(target)] });
      const report = await ctx.diagnostics.current({ cwd: ctx.cwd, trusted: ctx.trusted === true, signal: ctx.abort, ...(target ? { file: target.absolute } : {}) });
      const withheld = withheldDiagnosticsNote(await withholdUnreadable(ctx, report));
      if (withheld) report.notes.push(withheld);
      if (target && !(target.absolute in report.files)) {
        const why = ["No language server checks " + target.relative + " (none handles its kind of file, or its server is off or still starting).", ...report.notes.map((n) => `Note: ${n}`)];
        return { title: target.relative, output: why.join("\n"), metadata: { diagnostics: {}, errors: 0, warnings: 0 } };
      }
      if (!target && Object.keys(report.files).length === 0) {
        const none = ["No file is open in a language server yet: they check the files you change; pass a path to check one.", ...report.notes.map((n) => `Note: ${n}`)];
        return { title: "open files", output: none.join("\n"), metadata: { diagnostics: {}, errors: 0, warnings: 0 } };
      }
      const files = Object.entries(report.files)
        .filter(([file]) => target === undefined || file === target.absolute)
        .map(([file, all]) => [file, all.filter((d) => d.severity === "error" || d.severity === "warning").sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] || a.line - b.line)] as const)
        .filter(([file, shown]) => shown.length > 0 || file === target?.absolute)
        .sort(([a], [b]) => a.localeCompare(b));
      const all = files.flatMap(([, d]) => d);
      const errors = all.filter((d) => d.severity === "error").length;
      const warnings = all.length - errors;
      const blocks = files.filter(([, d]) => d.length > 0).map(([file, d]) => {
        const lines = d.slice(0, SHOWN_PER_FILE).map((x) => diagnosticLine(ctx.cwd, x));
        if (d.length > lines.length) lines.push(`… and ${d.length - lines.length} more in ${displayPath(ctx.cwd, file)}`);
        return lines.join("\n");
      });
      const scope = target ? target.relative : "the open files";
      const summary = all.length === 0 ? `No errors or warnings in ${scope}.` : `${errors} error${errors === 1 ? "" : "s"} and ${warnings} warning${warnings === 1 ? "" : "s"} in ${scope}:`;
      const output = [summary, ...blocks, ...report.notes.map((n) => `Note: ${n}`)].join("\n");
      return { title: target?.relative ?? "open files", output, metadata: { diagnostics: Object.fromEntries(files), errors, warnings } };
    },
  });
}

/** The `diagnostics` tool. */
export const diagnosticsTool = createDiagnosticsTool();
