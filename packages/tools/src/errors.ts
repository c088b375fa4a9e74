// Errors the built-in tools throw. The loop turns a thrown error into the tool's error result, so
// each message is written for the model: what went wrong and what to do next.

/** A path argument that cannot name a file: empty, with a NUL byte, or not a file or directory. */
export class InvalidPathError extends Error {
  override readonly name = "InvalidPathError";
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`Invalid path ${JSON.stringify(path)}: ${reason}`);
  }
}

/** The file or directory does not exist; `suggestions` are similar names in the same folder. */
export class FileNotFoundError extends Error {
  override readonly name = "FileNotFoundError";
  constructor(
    readonly path: string,
    readonly suggestions: string[] = [],
  ) {
    super(
      suggestions.length
        ? `File not found: ${path}\n\nDid you mean one of these?\n${suggestions.join("\n")}`
        : `File not found: ${path}`,
    );
  }
}

/** The file is binary (and not an image or PDF the model can see), so its text is not returned. */
export class BinaryFileError extends Error {
  override readonly name = "BinaryFileError";
  constructor(readonly path: string) {
    super(`Cannot read binary file: ${path}`);
  }
}

/** A write to an existing file the session has not read. */
export class FileNotReadError extends Error {
  override readonly name = "FileNotReadError";
  constructor(readonly path: string) {
    super(`You must read the file ${path} before changing it. Use the read tool first.`);
  }
}

/** A write to a file that changed on disk since the session last read it. */
export class FileModifiedError extends Error {
  override readonly name = "FileModifiedError";
  constructor(readonly path: string) {
    super(`The file ${path} has been modified since it was last read. Read it again before changing it.`);
  }
}

/** The file is not UTF-8 text: decoding it for an edit would replace its other bytes, so it is refused. */
export class NotUtf8Error extends Error {
  override readonly name = "NotUtf8Error";
  constructor(readonly path: string) {
    super(
      `${path} is not valid UTF-8 text; editing it as text would corrupt the rest of the file. ` +
        "Change it with a shell command that keeps its encoding, or rewrite it whole with the write tool.",
    );
  }
}

/** An argument that is well-formed but cannot be acted on (e.g. an offset past the end of the file). */
export class ToolInputError extends Error {
  override readonly name = "ToolInputError";
  constructor(
    readonly tool: string,
    message: string,
  ) {
    super(message);
  }
}

/** The bash sandbox was asked for but cannot run here (no bubblewrap, not Linux). */
export class SandboxUnavailableError extends Error {
  override readonly name = "SandboxUnavailableError";
  constructor(
    readonly sandbox: string,
    readonly reason: string,
  ) {
    super(`The ${sandbox} sandbox is not available: ${reason}`);
  }
}

/** A web fetch that failed: bad URL, HTTP error status, too large, or timed out. */
export class WebFetchError extends Error {
  override readonly name = "WebFetchError";
  constructor(
    readonly url: string,
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}
