import { fileURLToPath } from "node:url";
import type { Diagnostic } from "@lathe/tools";
import type { Diagnostic as LspDiagnostic } from "vscode-languageserver-protocol";

const SEVERITY = { 1: "error", 2: "warning", 3: "information", 4: "hint" } as const;

/** An LSP diagnostic (0-based positions) as Lathe's (1-based, with the file's path). */
export function fromLsp(uri: string, d: LspDiagnostic): Diagnostic {
  const out: Diagnostic = {
    path: fileURLToPath(uri),
    line: d.range.start.line + 1,
    column: d.range.start.character + 1,
    endLine: d.range.end.line + 1,
    endColumn: d.range.end.character + 1,
    severity: SEVERITY[d.severity ?? 1] ?? "error",
    message: typeof d.message === "string" ? d.message : d.message.value,
  };
  if (d.code !== undefined) out.code = d.code;
  if (d.source !== undefined) out.source = d.source;
  return out;
}

/** A tsserver diagnostic (`syntacticDiagnosticsSync`, `semanticDiagnosticsSync`; 1-based) as Lathe's. */
export interface TsServerDiagnostic {
  start: { line: number; offset: number };
  end: { line: number; offset: number };
  text: string;
  code?: number;
  category?: string;
  source?: string;
}

const TS_CATEGORY: Record<string, Diagnostic["severity"]> = { error: "error", warning: "warning", suggestion: "hint", message: "information" };

export function fromTsServer(path: string, d: TsServerDiagnostic): Diagnostic {
  const out: Diagnostic = {
    path,
    line: d.start.line,
    column: d.start.offset,
    endLine: d.end.line,
    endColumn: d.end.offset,
    severity: TS_CATEGORY[d.category ?? "error"] ?? "error",
    message: d.text,
    source: d.source ?? "typescript",
  };
  if (d.code !== undefined) out.code = d.code;
  return out;
}
