// Small codecs for git's NUL-separated machine formats.

/** A zero object id: with mode 0 in `update-index --index-info`, it removes the path. */
const ZERO_ID = "0".repeat(40);

/** Splits `-z` output into its entries (dropping the empty string after the last NUL). */
export function splitNul(output: Buffer): string[] {
  const text = output.toString("utf8");
  if (text === "") return [];
  const parts = text.split("\0");
  if (parts[parts.length - 1] === "") parts.pop();
  return parts;
}

/** One `update-index -z --index-info` line that sets `path` to the object `id` with `mode`. */
export function indexInfoLine(mode: string, id: string, path: string): string {
  return `${mode} ${id}\t${path}\0`;
}

/** One `update-index -z --index-info` line that removes `path` from the index. */
export function removalLine(path: string): string {
  return indexInfoLine("0", ZERO_ID, path);
}
