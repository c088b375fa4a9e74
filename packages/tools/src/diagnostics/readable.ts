// Language servers quote the files they check (a type error names the secret it was assigned), so
// what they say of a file is shown only where the model could `read` that file without asking.
import path from "node:path";
import type { DiagnosticsReport } from "../diagnostics.js";
import type { ToolContext } from "../tool.js";
import { isInside, realpathLoose, sessionDataDir, toPosix } from "../workspace-path.js";

/**
 * Whether the model could `read` `absolute` without an ask: its real path (symlinks resolved) is
 * allowed for `read`, and — outside the workspace — for `external_directory`. Decided by the rules
 * and the session's approvals alone ({@link ToolContext.check}); without it, every file may be shown.
 */
export async function readableWithoutAsk(ctx: ToolContext, absolute: string): Promise<boolean> {
  const check = ctx.check;
  if (!check) return true;
  const real = await realpathLoose(absolute).catch(() => absolute);
  const root = await realpathLoose(path.resolve(ctx.cwd)).catch(() => path.resolve(ctx.cwd));
  const inside = isInside(root, real);
  const external = !inside && !isInside(await realpathLoose(sessionDataDir(ctx)).catch(() => sessionDataDir(ctx)), real);
  if (external && check.call(ctx, { permission: "external_directory", patterns: [toPosix(path.join(path.dirname(real), "*"))] }) !== "allow") return false;
  const pattern = inside ? toPosix(path.relative(root, real)) || "." : toPosix(real);
  return check.call(ctx, { permission: "read", patterns: [pattern] }) === "allow";
}

/**
 * The report without the files the model could not read without asking (their diagnostics, and their
 * earlier ones); returns how many were withheld.
 */
export async function withholdUnreadable(ctx: ToolContext, report: DiagnosticsReport): Promise<number> {
  let withheld = 0;
  for (const file of new Set([...Object.keys(report.files), ...Object.keys(report.before)])) {
    if (await readableWithoutAsk(ctx, file)) continue;
    if (file in report.files) withheld++;
    delete report.files[file];
    delete report.before[file];
  }
  return withheld;
}

/** The note a result carries about withheld files. */
export function withheldDiagnosticsNote(count: number): string | undefined {
  if (count === 0) return undefined;
  const files = count === 1 ? "1 file is" : `${count} files are`;
  return `The diagnostics of ${files} not shown: reading ${count === 1 ? "it" : "them"} is denied or needs approval. Use the read tool on a file to ask for it.`;
}
