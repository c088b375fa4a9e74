/** Who is reading or writing, for a {@link FileAccess} that serves many sessions (an editor's). */
export interface FileAccessContext {
  sessionID: string;
  /** Fires when the call is aborted. */
  signal: AbortSignal;
}

/**
 * Where the file tools read and write text, when not straight from the disk: an editor's buffers
 * (ACP's `fs/read_text_file` and `fs/write_text_file`), so the agent sees unsaved changes and the
 * editor tracks what the agent changed. `read`, `write`, `edit` and `multiedit` go through it for
 * text files; everything else (listing, search, images, `apply_patch`, shell commands) works on the
 * disk. It is called only after the tool's permission checks, with absolute paths already resolved
 * inside the boundary — it changes where the bytes come from, never what may be touched.
 */
export interface FileAccess {
  /** The file's current text, or `undefined` when there is no such file. */
  readText(path: string, context: FileAccessContext): Promise<string | undefined>;
  /** Replaces the file's text, creating the file when it does not exist. */
  writeText(path: string, text: string, context: FileAccessContext): Promise<void>;
}
