// An edit script: how to turn one list of lines into another, as runs of kept, removed and added lines.

/** One run of an edit script. */
export interface EditRun {
  type: "equal" | "delete" | "insert";
  count: number;
}

/** Appends a run, merging it with the previous one when they are of the same type. */
export function pushRun(script: EditRun[], type: EditRun["type"], count: number): void {
  if (count <= 0) return;
  const last = script[script.length - 1];
  if (last && last.type === type) last.count += count;
  else script.push({ type, count });
}

/** Counts the added and removed lines of a script. */
export function scriptStats(script: readonly EditRun[]): { additions: number; removals: number } {
  let additions = 0;
  let removals = 0;
  for (const run of script) {
    if (run.type === "insert") additions += run.count;
    else if (run.type === "delete") removals += run.count;
  }
  return { additions, removals };
}
