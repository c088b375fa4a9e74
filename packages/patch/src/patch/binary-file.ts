// Both file systems refuse to hand binary content to the text engine, the same way.
import { PatchApplyError } from "../errors.js";
import { looksBinary } from "../diff/generate-diff.js";

/** The error for a file that is not UTF-8 text. */
export function binaryFileError(path: string): PatchApplyError {
  return new PatchApplyError(`${path} is not UTF-8 text; the patch format cannot edit it.`, { code: "binary_file", path });
}

/** Returns `text`, or throws {@link binaryFileError} when it looks binary. */
export function requireText(path: string, text: string): string {
  if (looksBinary(text) || text.includes("\u0000")) throw binaryFileError(path);
  return text;
}
