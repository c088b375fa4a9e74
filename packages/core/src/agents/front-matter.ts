import { readFileSync, statSync } from "node:fs";
import { looksBinary } from "@lathe/tools";
import { parse, YAMLError } from "yaml";
import type { z } from "zod";

/** The largest skill or command file read; a bigger one is reported and skipped. */
export const MAX_DEFINITION_BYTES = 256 * 1024;

/** A markdown file split into its YAML front matter (an object) and the text after it. */
export interface FrontMatterDocument {
  data: Record<string, unknown>;
  body: string;
}

/** A skill or command file that cannot be used: too big, binary, broken YAML, a field of the wrong type. */
export class DefinitionFileError extends Error {
  override readonly name = "DefinitionFileError";
  constructor(
    readonly path: string,
    reason: string,
  ) {
    super(`${path}: ${reason}`);
  }
}

const OPENING = /^\uFEFF?---[ \t]*\r?\n/;
const CLOSING = /^---[ \t]*$/m;

/**
 * Reads a markdown definition file as text: refuses one over `maxBytes`, one that looks binary, and
 * one that is not valid UTF-8, with a {@link DefinitionFileError} saying which. Synchronous, like the
 * reading of instruction files: discovery reads a few small files when a turn starts, and a turn's
 * set-up stays one uninterrupted piece of work.
 */
export function readDefinitionFile(path: string, maxBytes = MAX_DEFINITION_BYTES): string {
  let info;
  try {
    info = statSync(path);
  } catch (error) {
    throw new DefinitionFileError(path, `cannot be read (${error instanceof Error ? error.message : String(error)})`);
  }
  if (!info.isFile()) throw new DefinitionFileError(path, "is not a file");
  if (info.size > maxBytes) throw new DefinitionFileError(path, `is ${info.size} bytes, over the limit of ${maxBytes}`);
  const bytes = readFileSync(path);
  if (looksBinary(bytes.subarray(0, 8192))) throw new DefinitionFileError(path, "is a binary file, not markdown");
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new DefinitionFileError(path, "is not valid UTF-8 text");
  }
}

/**
 * Splits `---`-fenced YAML front matter from the markdown after it. Text without an opening fence has
 * no front matter (`data` is empty). An unclosed fence, YAML that does not parse, or front matter that
 * is not a mapping throws a {@link DefinitionFileError}.
 */
export function splitFrontMatter(path: string, text: string): FrontMatterDocument {
  const opening = OPENING.exec(text);
  if (!opening) return { data: {}, body: text.replace(/^\uFEFF/, "") };
  const rest = text.slice(opening[0].length);
  const closing = CLOSING.exec(rest);
  if (!closing) throw new DefinitionFileError(path, "the front matter opened with --- is never closed");
  const yaml = rest.slice(0, closing.index);
  const body = rest.slice(closing.index + closing[0].length).replace(/^\r?\n/, "");
  let data: unknown;
  try {
    // Aliases are capped (the library's default) so a "billion laughs" file cannot blow up memory.
    data = parse(yaml, { maxAliasCount: 100, prettyErrors: false });
  } catch (error) {
    const reason = error instanceof YAMLError ? error.message.split("\n")[0] : String(error);
    throw new DefinitionFileError(path, `the front matter is not valid YAML (${reason})`);
  }
  if (data === null || data === undefined) return { data: {}, body };
  if (typeof data !== "object" || Array.isArray(data)) throw new DefinitionFileError(path, "the front matter is not a mapping of fields");
  return { data: data as Record<string, unknown>, body };
}

/** Parses front matter fields with a zod schema; a mismatch is a {@link DefinitionFileError} naming the fields. */
export function parseFields<S extends z.ZodType>(path: string, schema: S, data: Record<string, unknown>): z.infer<S> {
  const parsed = schema.safeParse(data);
  if (parsed.success) return parsed.data;
  const reasons = parsed.error.issues.map((issue) => (issue.path.length ? `${issue.path.map(String).join(".")}: ${issue.message}` : issue.message));
  throw new DefinitionFileError(path, `the front matter is invalid (${reasons.join("; ")})`);
}

/**
 * Parsed definition files, kept while a file's modification time and size stay the same, so the
 * discovery run on every turn reads only what changed. Failures are kept too (and reported again).
 */
export class DefinitionFileCache<T> {
  private readonly entries = new Map<string, { key: string; result: T | DefinitionFileError }>();

  /** The file parsed by `load` (or its error); `variant` is what else the result depends on (its origin, its name). */
  get(file: string, variant: string, load: () => T): T | DefinitionFileError {
    const info = statSync(file, { throwIfNoEntry: false });
    const key = info ? `${info.mtimeMs}:${info.size}:${variant}` : "missing";
    const hit = this.entries.get(file);
    if (hit?.key === key) return hit.result;
    let result: T | DefinitionFileError;
    try {
      result = load();
    } catch (error) {
      result = error instanceof DefinitionFileError ? error : new DefinitionFileError(file, String(error));
    }
    this.entries.set(file, { key, result });
    return result;
  }
}
