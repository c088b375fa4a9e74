import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { z } from "zod";

/** The version of the cassette format this package writes and reads. */
export const CASSETTE_VERSION = 1;

/** The AI SDK model specification a recording was made with; replay presents the same one. */
export const ModelSpecification = z.enum(["v2", "v3", "v4"]);
/** The AI SDK model specification a recording was made with. */
export type ModelSpecification = z.infer<typeof ModelSpecification>;

/** What a recorded call answered: the streamed parts (and the error that ended the stream), or a generated result. */
export const RecordedResponse = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("stream"),
    /** The stream parts in order, JSON-encoded (dates, bytes and errors as tagged objects). */
    parts: z.array(z.unknown()),
    /** The error the stream failed with after its parts, if it failed. */
    error: z.unknown().optional(),
  }),
  z.object({ type: z.literal("generate"), result: z.unknown() }),
]);
/** What a recorded call answered. */
export type RecordedResponse = z.infer<typeof RecordedResponse>;

/** One recorded model call: the normalised request, its hash, and the response. */
export const Interaction = z.object({
  /** Stable hash of the normalised request: equal requests have equal keys. */
  key: z.string(),
  /** The model that answered, for the reader. */
  model: z.object({ provider: z.string(), modelId: z.string() }),
  specificationVersion: ModelSpecification,
  /** The request as it was hashed: prompt, tools and settings after normalisation. */
  request: z.record(z.string(), z.unknown()),
  response: RecordedResponse,
});
/** One recorded model call. */
export type Interaction = z.infer<typeof Interaction>;

/** A cassette's content: the recorded interactions in the order the calls were made. */
export const CassetteData = z.object({
  version: z.literal(CASSETTE_VERSION),
  interactions: z.array(Interaction),
});
/** A cassette's content. */
export type CassetteData = z.infer<typeof CassetteData>;

/** Where recordings are kept. {@link cassetteFile} keeps them in a JSON file, {@link memoryCassette} in memory. */
export interface Cassette {
  /** A name for messages, e.g. the file's path. */
  readonly name: string;
  /** The stored recordings, or undefined when nothing was recorded yet. */
  load(): CassetteData | undefined;
  /** Replaces the stored recordings. */
  save(data: CassetteData): void;
}

/** The cassette's content is not a cassette this version understands. */
export class InvalidCassetteError extends Error {
  override readonly name = "InvalidCassetteError";
  constructor(
    readonly cassette: string,
    readonly reason: string,
  ) {
    super(`Cassette ${cassette} cannot be read: ${reason}`);
  }
}

/** Checks a cassette's content, with a readable error naming the cassette. */
export function parseCassette(name: string, value: unknown): CassetteData {
  const parsed = CassetteData.safeParse(value);
  if (!parsed.success) throw new InvalidCassetteError(name, z.prettifyError(parsed.error));
  return parsed.data;
}

/**
 * A cassette kept as a plain JSON file (two-space indented, one interaction after another), fit for
 * review in a pull request. The file and its folder are created on the first save; saves replace the
 * file atomically.
 *
 * @example
 * ```ts
 * const model = replayModel(cassetteFile("test/cassettes/fix-login.json"));
 * ```
 */
export function cassetteFile(path: string): Cassette {
  return {
    name: path,
    load() {
      let text: string;
      try {
        text = readFileSync(path, "utf8");
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
        throw error;
      }
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch (error) {
        throw new InvalidCassetteError(path, `not JSON (${(error as Error).message})`);
      }
      return parseCassette(path, json);
    },
    save(data) {
      mkdirSync(dirname(path), { recursive: true });
      const temporary = `${path}.${process.pid}.tmp`;
      writeFileSync(temporary, `${JSON.stringify(data, null, 2)}\n`);
      renameSync(temporary, path);
    },
  };
}

/** A cassette held in memory (for tests of tests); `data` is what was last saved. */
export interface MemoryCassette extends Cassette {
  readonly data: CassetteData | undefined;
}

/** A cassette held in memory, optionally starting from recorded data. */
export function memoryCassette(initial?: CassetteData, name = "memory cassette"): MemoryCassette {
  // Stored as JSON text so a saved cassette behaves exactly like one read back from a file.
  let stored = initial === undefined ? undefined : JSON.stringify(initial);
  return {
    name,
    get data() {
      return stored === undefined ? undefined : parseCassette(name, JSON.parse(stored));
    },
    load() {
      return this.data;
    },
    save(data) {
      stored = JSON.stringify(data);
    },
  };
}

/** A path is taken as a {@link cassetteFile}; a cassette is used as it is. */
export function toCassette(cassette: Cassette | string): Cassette {
  return typeof cassette === "string" ? cassetteFile(cassette) : cassette;
}
