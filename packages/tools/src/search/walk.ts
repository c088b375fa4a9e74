import { readdir } from "node:fs/promises";
import path from "node:path";
import { IgnoreRules } from "./ignore-rules.js";

/** A file found by {@link walkFiles}. */
export interface WalkedFile {
  absolute: string;
  /** `/`-separated, relative to the walk's root. */
  relative: string;
}

/** Options of {@link walkFiles}. */
export interface WalkOptions {
  signal?: AbortSignal;
  /** Folders for which this is true are not entered (besides ignored ones). */
  skipDirectory?: (relative: string, name: string) => boolean;
  /** Visit folder by folder, level by level (`breadth`), or depth first (default). */
  order?: "depth" | "breadth";
}

/** Mount points of kernel file systems, skipped by a walk that reaches them from above. */
const PSEUDO_FILE_SYSTEMS = new Set(["/proc", "/sys", "/dev", "/run"]);

/**
 * Walks the files below `root` the way `rg --files --hidden` does: hidden files included, `.git`
 * folders skipped, `.gitignore` / `.ignore` / `.rgignore` rules respected (also those of parent folders
 * up to the repository root), symbolic links not followed. Yields files as it finds them, holding only
 * the folders still to visit, so a large tree is never loaded into memory.
 */
export async function* walkFiles(root: string, options: WalkOptions = {}): AsyncGenerator<WalkedFile> {
  const { signal, skipDirectory, order = "depth" } = options;
  const stack: Array<{ dir: string; relative: string; rules: IgnoreRules }> = [
    { dir: root, relative: "", rules: await IgnoreRules.at(root) },
  ];
  while (stack.length) {
    signal?.throwIfAborted();
    const { dir, relative, rules: parentRules } = order === "depth" ? stack.pop()! : stack.shift()!;
    let entries: Array<{ name: string; isDir: boolean; isFile: boolean }>;
    // Kernel file systems (/proc, /sys, /dev, …) hold no source and files whose reads block: not walked.
    if (relative !== "" && PSEUDO_FILE_SYSTEMS.has(dir)) continue;
    try {
      entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)).map((entry) => ({ name: entry.name, isDir: entry.isDirectory(), isFile: entry.isFile() }));
    } catch {
      continue; // unreadable folder: skipped, as ripgrep does with --no-messages
    }
    // The root's own ignore files are already part of `IgnoreRules.at(root)`.
    const rules = relative === "" ? parentRules : await parentRules.descend(dir, new Set(entries.map((e) => e.name)));
    const subdirs: typeof stack = [];
    for (const entry of entries) {
      if (!entry.isDir && !entry.isFile) continue; // links, sockets, devices
      if (entry.name === ".git") continue; // the folder, or the file of a worktree
      const absolute = path.join(dir, entry.name);
      if (rules.ignores(absolute, entry.isDir)) continue;
      const rel = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDir && skipDirectory?.(rel, entry.name)) continue;
      if (entry.isDir) subdirs.push({ dir: absolute, relative: rel, rules });
      else yield { absolute, relative: rel };
    }
    // Depth first pops from the end, so folders are pushed reversed to be visited in name order.
    if (order === "depth") for (let i = subdirs.length - 1; i >= 0; i--) stack.push(subdirs[i]!);
    else stack.push(...subdirs);
  }
}
