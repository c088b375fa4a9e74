// The parsed form of a `*** Begin Patch` text.

/** One line of an `@@` chunk: kept as context, removed, or added. */
export interface ChunkLine {
  kind: "context" | "remove" | "add";
  text: string;
}

/** One `@@` chunk of an Update File operation. */
export interface UpdateChunk {
  /** The text after `@@ `: a line to find first, which moves the search cursor past it. */
  changeContext?: string;
  /** The chunk's lines in order. */
  lines: ChunkLine[];
  /** Context and removed lines: what must be found in the file. */
  oldLines: string[];
  /** Context and added lines: what replaces them. */
  newLines: string[];
  /** `*** End of File` closed the chunk: it must match at the end of the file. */
  isEndOfFile: boolean;
  /** 1-based line of the patch where the chunk starts. */
  line: number;
}

/** `*** Add File: path` (creates the file, or replaces it when it exists). */
export interface AddFileHunk {
  type: "add";
  path: string;
  /** The new file's content (every `+` line followed by "\n"). */
  contents: string;
  line: number;
}

/** `*** Delete File: path`. */
export interface DeleteFileHunk {
  type: "delete";
  path: string;
  line: number;
}

/** `*** Update File: path`, optionally `*** Move to: movePath`, then `@@` chunks. */
export interface UpdateFileHunk {
  type: "update";
  path: string;
  movePath?: string;
  chunks: UpdateChunk[];
  line: number;
}

/** One file operation of a patch. */
export type PatchHunk = AddFileHunk | DeleteFileHunk | UpdateFileHunk;

/** A parsed patch: its file operations in order. */
export interface ParsedPatch {
  hunks: PatchHunk[];
}
