import { CorruptRecordError, type CorruptRecordHandler, type RecordLocation } from "./errors.js";

/** The ids a stored record must carry: those of the key it is stored under. */
export interface RecordKey {
  id: string;
  sessionID?: string;
  messageID?: string;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Why `value` is not a record stored under `key`, or undefined when it is one. */
function mismatch(value: unknown, key: RecordKey): string | undefined {
  if (!isObject(value)) return `expected a JSON object, found ${Array.isArray(value) ? "an array" : typeof value}`;
  for (const field of ["id", "sessionID", "messageID"] as const) {
    const expected = key[field];
    if (expected !== undefined && value[field] !== expected) {
      return `its ${field} is ${JSON.stringify(value[field])}, but it is stored under ${JSON.stringify(expected)}`;
    }
  }
  return undefined;
}

/**
 * Parses a record an adapter stored as JSON text, checking it is an object carrying the ids of the
 * key it is stored under (a cheap check that catches damage without validating the whole schema).
 *
 * @throws {@link CorruptRecordError} naming `where` when the text is not such a record.
 */
export function parseStoredRecord<T>(text: string, key: RecordKey, where: RecordLocation): T {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new CorruptRecordError(where, error);
  }
  return checkStoredRecord<T>(value, key, where);
}

/** {@link parseStoredRecord} for a value already parsed (a file's JSON). */
export function checkStoredRecord<T>(value: unknown, key: RecordKey, where: RecordLocation): T {
  const problem = mismatch(value, key);
  if (problem) throw new CorruptRecordError(where, new Error(problem));
  return value as T;
}

/**
 * Reads each item with `read`, leaving out (and reporting to `onCorrupt`) those that throw
 * {@link CorruptRecordError}: one damaged record must not hide the intact ones beside it. Other
 * errors (I/O, a lost connection) still reject.
 */
export function keepIntact<I, T>(items: readonly I[], read: (item: I) => T, onCorrupt: CorruptRecordHandler): Array<Exclude<T, undefined>> {
  const result: Array<Exclude<T, undefined>> = [];
  for (const item of items) {
    try {
      const value = read(item);
      if (value !== undefined) result.push(value as Exclude<T, undefined>);
    } catch (error) {
      if (!(error instanceof CorruptRecordError)) throw error;
      onCorrupt(error);
    }
  }
  return result;
}

/** Separates the key columns of one record in a joined key text (SQL `char(31)`, ASCII unit separator). */
export const KEY_FIELD_SEPARATOR = "\x1f";
/** Separates the records of a joined key text (SQL `char(30)`, ASCII record separator). */
export const KEY_RECORD_SEPARATOR = "\x1e";

/**
 * The fast way to load many records kept as JSON text: the database joins them into one array text
 * (`'[' || group_concat(data, ',') || ']'`) and their keys into one string (each record's key
 * columns in `fields` order joined by {@link KEY_FIELD_SEPARATOR}, the records by
 * {@link KEY_RECORD_SEPARATOR}), and the array is parsed once. Returns undefined when the text is not
 * the records of those keys in `sessionID` (some row is damaged): the caller then reads row by row to
 * find the damaged ones and keep the rest.
 */
export function parseJoinedRecords<T>(
  joined: string | null,
  keys: string | null,
  sessionID: string,
  fields: ReadonlyArray<"messageID" | "id">,
): T[] | undefined {
  if (joined === null || keys === null) return joined === keys ? [] : undefined; // no rows: both null
  let list: unknown;
  try {
    list = JSON.parse(joined);
  } catch {
    return undefined;
  }
  if (!Array.isArray(list)) return undefined;
  const seen: string[] = [];
  for (const item of list as unknown[]) {
    if (!isObject(item) || item.sessionID !== sessionID) return undefined;
    seen.push(fields.map((field) => String(item[field])).join(KEY_FIELD_SEPARATOR));
  }
  return seen.join(KEY_RECORD_SEPARATOR) === keys ? (list as T[]) : undefined;
}
