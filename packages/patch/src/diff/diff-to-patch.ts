// Renders a unified diff as a `*** Begin Patch` text, so a diff from generateDiff (or git) can be
// applied through the same engine as a model's patch.
import { parsePatch as parseUnified } from "diff";

/**
 * Converts a unified diff (one or several files, e.g. from {@link generateDiff} or `git diff`) to the
 * `*** Begin Patch` format: new files become Add File, deleted files Delete File, the rest Update File
 * (with Move to when the name changes) with one `@@` chunk per hunk. The patch format has no line
 * numbers, so each chunk's context must identify its place (diffs with context lines do).
 */
export function diffToPatch(diff: string): string {
  const out = ["*** Begin Patch"];
  for (const file of parseUnified(diff)) {
    const oldName = stripPrefix(file.oldFileName);
    const newName = stripPrefix(file.newFileName);
    const bodies = file.hunks.map((h) => h.lines.filter((l) => !l.startsWith("\\")));
    if (newName === undefined && oldName === undefined) continue;
    if (oldName === undefined) {
      out.push(`*** Add File: ${newName}`);
      for (const body of bodies) for (const l of body) if (l.startsWith("+")) out.push(l);
    } else if (newName === undefined) {
      out.push(`*** Delete File: ${oldName}`);
    } else {
      out.push(`*** Update File: ${oldName}`);
      if (newName !== oldName) out.push(`*** Move to: ${newName}`);
      for (const body of bodies) out.push("@@", ...body);
    }
  }
  out.push("*** End Patch");
  return `${out.join("\n")}\n`;
}

function stripPrefix(name: string | undefined): string | undefined {
  if (name === undefined || name === "/dev/null") return undefined;
  return name.replace(/^[ab]\//, "");
}
