import { closeSync, openSync, readSync } from "node:fs";
import path from "node:path";
import { compileGlob } from "./glob-pattern.js";
import { compileSearchRegex } from "./search-regex.js";
import { RIPGREP_WALK_FLAGS, RipgrepError, runRipgrep } from "./ripgrep.js";
import { walkFiles } from "./walk.js";

/** Where and how to search: the ripgrep binary (or none, for the pure-Node search) and an abort signal. */
export interface SearchBackend {
  rg: string | undefined;
  signal?: AbortSignal;
}

/** One matching line. */
export interface LineMatch {
  /** `/`-separated, relative to the search root. */
  file: string;
  /** 1-based. */
  line: number;
  text: string;
}

/**
 * Lists the files below `root` (see {@link walkFiles} for what is skipped) whose path relative to
 * `root` matches `glob` (ripgrep's `--glob` meaning), handing each to `onFile` as it is found.
 */
export async function listFiles(root: string, glob: string | undefined, backend: SearchBackend, onFile: (relative: string) => void): Promise<void> {
  // The glob is matched here rather than given to ripgrep, whose --glob overrides .gitignore.
  const matches = glob ? compileGlob(glob) : () => true;
  if (backend.rg) {
    const args = ["--files", ...RIPGREP_WALK_FLAGS, "--glob", "!.git"];
    return runRipgrep(backend.rg, args, root, (line) => line && matches(line) && onFile(line), backend.signal);
  }
  for await (const file of walkFiles(root, { signal: backend.signal })) {
    if (matches(file.relative)) onFile(file.relative);
  }
}

/**
 * Finds the lines matching the regex `pattern` in the text files below `root` (binary files skipped),
 * optionally only in files matching the `include` glob, or only in the one file `file` (relative to
 * `root`). ripgrep gets the pattern as is; the pure-Node
 * search compiles it with {@link compileSearchRegex}.
 */
export async function searchLines(
  root: string,
  query: { pattern: string; include?: string; file?: string },
  backend: SearchBackend,
  onMatch: (match: LineMatch) => void,
  /** Pure-Node search only: called for each file before it is read; false skips it. */
  shouldRead?: (relative: string) => boolean,
): Promise<void> {
  // As in listFiles, `include` is matched here: ripgrep's --glob would override .gitignore.
  const include = query.include && !query.file ? compileGlob(query.include) : () => true;
  if (backend.rg) {
    const args = [
      "--null",
      "--line-number",
      "--with-filename",
      "--no-heading",
      ...RIPGREP_WALK_FLAGS,
      ...typeFilter(query.file ? undefined : query.include),
      "--glob",
      "!.git",
      "--regexp",
      query.pattern,
      ...(query.file ? ["--", query.file] : []),
    ];
    const onLine = (line: string) => {
        const nul = line.indexOf("\0");
        const colon = line.indexOf(":", nul + 1);
        if (nul <= 0 || colon === -1) return;
        const file = line.slice(0, nul);
        if (!include(file)) return;
        const text = line.slice(colon + 1);
        onMatch({ file, line: Number(line.slice(nul + 1, colon)), text: text.endsWith("\r") ? text.slice(0, -1) : text });
    };
    try {
      return await runRipgrep(backend.rg, args, root, onLine, backend.signal);
    } catch (error) {
      // ripgrep's default engine has no look-around or backreferences, which models write (and the
      // pure-Node search, a JavaScript RegExp, accepts): such a pattern runs again with PCRE2.
      if (!(error instanceof RipgrepError) || !/regex/i.test(error.stderr)) throw error;
      return await runRipgrep(backend.rg, ["--pcre2", ...args], root, onLine, backend.signal).catch(() => {
        throw error;
      });
    }
  }
  const regex = compileSearchRegex(query.pattern);
  if (query.file) return void ((shouldRead?.(query.file) ?? true) && searchFile(path.join(root, query.file), query.file, regex, onMatch));
  for await (const file of walkFiles(root, { signal: backend.signal })) {
    if (include(file.relative) && (shouldRead?.(file.relative) ?? true)) searchFile(file.absolute, file.relative, regex, onMatch);
  }
}

// Reads synchronously: for the many small files of a source tree, a sync read costs a fraction of an
// async one (no thread-pool round trips). The walk awaits each folder it reads, so the event loop
// still gets its turns between folders.
function searchFile(absolute: string, relative: string, regex: RegExp, onMatch: (match: LineMatch) => void): void {
  const bytes = readWhole(absolute);
  if (!bytes) return;
  // A NUL byte marks a binary file, which ripgrep skips too.
  if (bytes.includes(0)) return;
  const text = bytes.toString("utf8");
  // One test over the whole text rules out most files; only those that may match are split into lines.
  if (!regex.test(text)) return;
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  lines.forEach((line, i) => {
    const clean = line.endsWith("\r") ? line.slice(0, -1) : line;
    if (regex.test(clean)) onMatch({ file: relative, line: i + 1, text: clean });
  });
}

// A name-only include glob (no `/`, not negated) can narrow ripgrep's search through a file type,
// which, unlike --glob, keeps .gitignore in force; the exact filter above still decides.
function typeFilter(include: string | undefined): string[] {
  if (!include || include.includes("/") || include.startsWith("!") || include.includes(":")) return [];
  return ["--type-add", `latheinclude:${include}`, "--type", "latheinclude"];
}

// One scratch buffer serves every small file (it is used synchronously, so calls never share it);
// a larger file grows into a buffer of its own, dropped after use.
const scratch = Buffer.allocUnsafe(64 * 1024);

/** A file's bytes (a view valid until the next call), or undefined when it cannot be read. */
function readWhole(absolute: string): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(absolute, "r");
  } catch {
    return undefined;
  }
  try {
    let buffer = scratch;
    let size = 0;
    for (;;) {
      if (size === buffer.length) {
        const bigger = Buffer.allocUnsafe(buffer.length * 2);
        buffer.copy(bigger, 0, 0, size);
        buffer = bigger;
      }
      const read = readSync(fd, buffer, size, buffer.length - size, null);
      if (read === 0) break;
      size += read;
    }
    return buffer.subarray(0, size);
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}
