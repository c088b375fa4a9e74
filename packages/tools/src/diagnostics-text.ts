import path from "node:path";
import type { Diagnostic } from "./diagnostics.js";
import { toPosix } from "./workspace-path.js";

/** Errors shown per file; the rest are counted. */
export const ERRORS_PER_FILE = 10;
/** Other files whose new errors a `write` reports; the rest are counted. */
export const OTHER_FILES_SHOWN = 5;

/** `src/a.ts:3:7 error TS2322: message` — one line per diagnostic, paths relative to the workspace. */
export function diagnosticLine(cwd: string, d: Diagnostic): string {
  const code = d.code === undefined ? "" : ` ${typeof d.code === "number" && d.source === "typescript" ? `TS${d.code}` : d.code}`;
  const message = d.message.replace(/\s*\n\s*/g, " ");
  return `${displayPath(cwd, d.path)}:${d.line}:${d.column} ${d.severity}${code}: ${message}`;
}

/** The path as the model sees it: relative inside the workspace, absolute outside. */
export function displayPath(cwd: string, absolute: string): string {
  const relative = path.relative(cwd, absolute);
  return relative.startsWith("..") || path.isAbsolute(relative) ? absolute : toPosix(relative);
}

/** The errors of one file as a block the model can act on, capped at `ERRORS_PER_FILE` (10) with a count of the rest. */
export function errorBlock(cwd: string, file: string, errors: Diagnostic[]): string {
  const shown = errors.slice(0, ERRORS_PER_FILE).map((d) => diagnosticLine(cwd, d));
  const rest = errors.length - shown.length;
  if (rest > 0) shown.push(`… and ${rest} more error${rest === 1 ? "" : "s"} in ${displayPath(cwd, file)}`);
  return `<diagnostics file="${displayPath(cwd, file)}">\n${shown.join("\n")}\n</diagnostics>`;
}

/** Errors only, in file order. */
export function errorsOf(diagnostics: Diagnostic[] | undefined): Diagnostic[] {
  return (diagnostics ?? []).filter((d) => d.severity === "error").sort((a, b) => a.line - b.line || a.column - b.column);
}

/** The diagnostics of `after` not in `before` (same place, code and message). */
export function newDiagnostics(before: Diagnostic[] | undefined, after: Diagnostic[]): Diagnostic[] {
  const key = (d: Diagnostic) => `${d.line}:${d.column}:${String(d.code)}:${d.message}`;
  const seen = new Set((before ?? []).map(key));
  return after.filter((d) => !seen.has(key(d)));
}
