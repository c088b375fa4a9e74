// Which files a search may show the lines of: those the model could `read` without asking. A file
// whose `read` is denied or would ask is withheld, and counted. The count covers every such file in
// the search's scope, whether it matches or not, so it tells nothing about a withheld file's content.
import path from "node:path";
import type { ToolContext } from "../tool.js";
import { listFiles, type SearchBackend } from "./file-search.js";
import type { SearchRoot } from "./search-root.js";

/** The read decisions of one search. */
export interface ReadFilter {
  /** True when the lines of `file` (relative to the search base) may be shown. Cached per file. */
  allows(file: string): boolean;
  /**
   * For the pure-Node search, which visits every file of the scope itself: decides and counts each
   * file before it is read (a withheld file is not even read). Undefined with ripgrep.
   */
  beforeRead?: (file: string) => boolean;
  /** How many files in the search's scope were withheld; call after the search. */
  withheld(): Promise<number>;
}

/**
 * A {@link ReadFilter} for a search of `root`, or undefined when the context cannot check
 * permissions (no {@link ToolContext.check}). The pure-Node search decides each file as its walk
 * reaches it. ripgrep reports only matching files, so the scope's files are listed alongside its
 * search (`rg --files`, another process, running at the same time) to be decided and counted.
 */
export function readFilter(ctx: ToolContext, root: SearchRoot, scope: { include?: string; backend: SearchBackend }): ReadFilter | undefined {
  const check = ctx.check;
  if (!check) return undefined;
  const decisions = new Map<string, boolean>();
  const allows = (file: string): boolean => {
    let allowed = decisions.get(file);
    if (allowed === undefined) {
      allowed = check.call(ctx, { permission: "read", patterns: [root.display(file)] }) === "allow";
      decisions.set(file, allowed);
    }
    return allowed;
  };
  let count = 0;
  const tally = (file: string): boolean => {
    const allowed = allows(file);
    if (!allowed) count++;
    return allowed;
  };
  if (!root.isDirectory) {
    tally(path.basename(root.absolute));
    return { allows, withheld: async () => count };
  }
  if (!scope.backend.rg) return { allows, beforeRead: tally, withheld: async () => count };
  const counting = listFiles(root.absolute, scope.include, scope.backend, (file) => void tally(file));
  // A failed listing must not become an unhandled rejection before withheld() is awaited.
  counting.catch(() => {});
  return { allows, withheld: () => counting.then(() => count) };
}

/** The note a search result carries about withheld files. */
export function withheldNote(count: number): string {
  if (count === 0) return "";
  const files = count === 1 ? "1 file was" : `${count} files were`;
  return `(${files} not searched: reading ${count === 1 ? "it" : "them"} is denied or needs approval. Use the read tool on a file to ask for it.)`;
}
