import type { RequestDiff } from "./request-diff.js";

/** {@link replayModel} was asked a request its cassette has no recording of. */
export class CassetteMismatchError extends Error {
  override readonly name = "CassetteMismatchError";
  constructor(
    /** The cassette's name (its file path). */
    readonly cassette: string,
    /** The key of the request that was not found. */
    readonly key: string,
    /** The request, normalised. */
    readonly request: Record<string, unknown>,
    /** The nearest recorded request and how it differs; undefined for an empty cassette. */
    readonly closest: RequestDiff | undefined,
  ) {
    super(
      closest
        ? `No recorded response in ${cassette} for this request (key ${key}). ` +
            `Nearest recording: #${closest.index + 1} (key ${closest.key}), ${closest.changedLines} line(s) differ ` +
            `(- recorded, + this request):\n${closest.diff}\n` +
            "Re-record the cassette if the change is intended."
        : `No recorded response in ${cassette} for this request (key ${key}): the cassette is empty. Record it first.`,
    );
  }
}

/** {@link replayModel} was given a cassette that holds no recordings (a file that does not exist). */
export class CassetteNotFoundError extends Error {
  override readonly name = "CassetteNotFoundError";
  constructor(readonly cassette: string) {
    super(`Cassette ${cassette} does not exist. Record it with recordModel(model, cassette) first.`);
  }
}
