// The display form of a diff: the indentation every changed and context line shares is removed, so
// a change deep inside nested code reads comfortably in a permission prompt or a narrow UI.

/**
 * Removes the leading whitespace common to every non-blank hunk line of a unified diff (headers,
 * `@@` lines and `\ No newline` markers are left as they are). Only an identical whitespace prefix is
 * removed, so mixed tabs and spaces are never garbled. For display only: the result no longer applies.
 */
export function trimDiff(diff: string): string {
  const lines = diff.split("\n");
  const body = hunkBodyLines(lines);
  let common: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    if (!body[i]) continue;
    const content = lines[i]!.slice(1).replace(/\r$/, "");
    if (content.trim() === "") continue;
    const indent = /^[ \t]*/.exec(content)![0];
    common = common === undefined ? indent : sharedPrefix(common, indent);
    if (common === "") return diff;
  }
  if (!common) return diff;
  const prefix = common;
  return lines
    .map((line, i) => {
      if (!body[i]) return line;
      const content = line.slice(1);
      return line[0] + (content.startsWith(prefix) ? content.slice(prefix.length) : content.trimStart());
    })
    .join("\n");
}

/** Which lines are ` `/`+`/`-` lines inside a hunk (a `--- `/`+++ ` pair starts a new file header). */
function hunkBodyLines(lines: readonly string[]): boolean[] {
  const body: boolean[] = [];
  let inHunk = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.startsWith("--- ") && lines[i + 1]?.startsWith("+++ ")) inHunk = false;
    if (line.startsWith("@@")) {
      inHunk = true;
      body.push(false);
      continue;
    }
    body.push(inHunk && (line.startsWith(" ") || line.startsWith("+") || line.startsWith("-")));
  }
  return body;
}

function sharedPrefix(a: string, b: string): string {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return a.slice(0, i);
}
