// Typed errors of the patch engine. Every failure is one of these classes, with a fixed `name`, the
// data a caller needs to act on it, and a message written for a model to read and fix its input.

/** Where a search came closest to matching: what a model should look at to correct its edit. */
export interface NearMiss {
  /** First line of the closest region (1-based). */
  startLine: number;
  /** Last line of the closest region (1-based, inclusive). */
  endLine: number;
  /** How alike the region and the search are, from 0 (nothing alike) to 1 (identical). */
  similarity: number;
  /** The region's text as it is in the file, zero-width characters spelt out (`\u200b`) so they can be seen. */
  text: string;
}

/** The `*** Begin Patch` text is malformed; nothing was applied. */
export class PatchParseError extends Error {
  override readonly name = "PatchParseError";
  /** 1-based line of the patch text the problem is on. */
  readonly line: number;
  /** That line's text (empty when the patch has no such line). */
  readonly lineText: string;

  constructor(message: string, line: number, lineText: string) {
    super(`Invalid patch (line ${line}): ${message}`);
    this.line = line;
    this.lineText = lineText;
  }
}

/** Why a patch could not be applied. */
export type PatchApplyErrorCode =
  /** A chunk's old lines (or its `@@` context line) are not in the file. */
  | "context_not_found"
  /** Update, Delete or Move of a file that does not exist. */
  | "file_not_found"
  /** The path names a directory (or something that is not a regular file). */
  | "not_a_file"
  /** A parent of the path is a file, so the path cannot be created. */
  | "not_a_directory"
  /** The file is not UTF-8 text; the patch format cannot edit it safely. */
  | "binary_file"
  /** The file changed between planning and committing. */
  | "stale"
  /** Writing failed; every file already written was restored. */
  | "write_failed";

/** Data of a {@link PatchApplyError}. */
export interface PatchApplyErrorData {
  code: PatchApplyErrorCode;
  /** The file (relative to the target root) the failure is about. */
  path: string;
  /** 1-based index of the failing `@@` chunk within its file's Update, when one failed. */
  chunk?: number;
  /** The lines that were searched for and not found. */
  context?: string[];
  /** The closest region of the file to the lines that were not found, when there is one. */
  nearMiss?: NearMiss;
  /** The underlying error, for `write_failed`. */
  cause?: unknown;
}

/** A patch is well-formed but does not fit the files; nothing was changed. */
export class PatchApplyError extends Error {
  override readonly name = "PatchApplyError";
  readonly code: PatchApplyErrorCode;
  readonly path: string;
  readonly chunk: number | undefined;
  readonly context: string[] | undefined;
  readonly nearMiss: NearMiss | undefined;

  constructor(message: string, data: PatchApplyErrorData) {
    super(message, data.cause === undefined ? undefined : { cause: data.cause });
    this.code = data.code;
    this.path = data.path;
    this.chunk = data.chunk;
    this.context = data.context;
    this.nearMiss = data.nearMiss;
  }
}

/** A path in a patch is absolute or leaves the target root; nothing was changed. */
export class PatchPathError extends Error {
  override readonly name = "PatchPathError";
  /** The path as written in the patch. */
  readonly path: string;

  constructor(path: string, reason: string) {
    super(
      `Refusing path '${path}': ${reason}. Use a path relative to the workspace root, without '..' segments that leave it.`,
    );
    this.path = path;
  }
}

/** Why {@link replace} refused an edit. */
export type ReplaceErrorCode =
  /** No matcher found the search text (see `nearMiss`). */
  | "not_found"
  /** The search text matches several places (see `matches`) and `replaceAll` was not set. */
  | "multiple"
  /** The replacement equals the search, or the file already reads that way. */
  | "no_change"
  /** The search text is empty. */
  | "empty_search"
  /** The search matched only with another indentation, and the file nests its lines differently. */
  | "indentation_mismatch"
  /** `newString` carries line-number prefixes (copied from a file view) that `oldString` does not. */
  | "line_number_prefix"
  /** A line of `newString` that only stands for code left out (`// ... existing code ...`) replaces real lines of `oldString`. */
  | "elision";

/** Data of a {@link ReplaceError}. */
export interface ReplaceErrorData {
  code: ReplaceErrorCode;
  /** 1-based first lines of every match, for `multiple`. */
  matches?: number[];
  /** The closest region, for `not_found` when something came close. */
  nearMiss?: NearMiss;
}

/** {@link replace} could not make the edit; the content is unchanged. */
export class ReplaceError extends Error {
  override readonly name = "ReplaceError";
  readonly code: ReplaceErrorCode;
  readonly matches: number[];
  readonly nearMiss: NearMiss | undefined;

  constructor(message: string, data: ReplaceErrorData) {
    super(message);
    this.code = data.code;
    this.matches = data.matches ?? [];
    this.nearMiss = data.nearMiss;
  }
}
