// What a patch does to one file: the record planPatch returns, commitPlan writes and applyPatch resolves to.

/** One file operation of a planned or applied patch, with its diff. */
export interface FileChange {
  /** `added`: a new file; `modified`: an existing file rewritten (Update, or Add over an existing file); `deleted`; `moved`: Update with Move to. */
  type: "added" | "modified" | "deleted" | "moved";
  /** The file's path relative to the target root (for `moved`, the source). */
  path: string;
  /** For `moved`: the destination path. */
  movePath?: string;
  /** The content before the operation; null when the file did not exist. */
  oldContent: string | null;
  /** The content after the operation (for `moved`, at `movePath`); null when deleted. */
  newContent: string | null;
  /** For `moved`: what was at `movePath` before (a file the move overwrites), or null. */
  destinationContent?: string | null;
  /** Git-style unified diff of the operation. */
  diff: string;
  /** Lines added. */
  additions: number;
  /** Lines removed. */
  removals: number;
}
