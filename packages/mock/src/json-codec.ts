// Stream parts and requests hold values JSON cannot: dates (response metadata), bytes (files),
// URLs and errors. They are written as tagged objects ({ "$date": … }) and read back as such.

/** An error as a cassette keeps it. */
export interface EncodedError {
  name: string;
  message: string;
  /** Further plain fields of the error (status codes, response bodies), when JSON can hold them. */
  data?: Record<string, unknown>;
}

const ERROR_FIELDS_SKIPPED = new Set(["name", "message", "stack", "cause", "requestBodyValues", "responseHeaders"]);

/** Converts a value to plain JSON data, tagging dates, bytes, URLs and errors. */
export function encodeValue(value: unknown): unknown {
  if (value instanceof Date) return { $date: value.toISOString() };
  if (value instanceof URL) return { $url: value.href };
  if (value instanceof Uint8Array) return { $bytes: Buffer.from(value).toString("base64") };
  if (value instanceof Error) return { $error: encodeError(value) };
  if (Array.isArray(value)) return value.map(encodeValue);
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(value)) {
      if (field !== undefined && typeof field !== "function") out[key] = encodeValue(field);
    }
    return out;
  }
  return value;
}

/** Reads back what {@link encodeValue} wrote. */
export function decodeValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(decodeValue);
  if (value === null || typeof value !== "object") return value;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  if (keys.length === 1) {
    if (typeof record.$date === "string") return new Date(record.$date);
    if (typeof record.$url === "string") return new URL(record.$url);
    if (typeof record.$bytes === "string") return new Uint8Array(Buffer.from(record.$bytes, "base64"));
    if (record.$error && typeof record.$error === "object") return decodeError(record.$error as EncodedError);
  }
  return Object.fromEntries(keys.map((key) => [key, decodeValue(record[key])]));
}

/** An error's name, message and plain data fields. */
export function encodeError(error: unknown): EncodedError {
  if (!(error instanceof Error)) return { name: "Error", message: String(error) };
  const data: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(error)) {
    if (ERROR_FIELDS_SKIPPED.has(key) || field === undefined || typeof field === "function") continue;
    try {
      data[key] = JSON.parse(JSON.stringify(encodeValue(field)));
    } catch {
      // A field JSON cannot hold (a cycle) is left out: name and message still say what happened.
    }
  }
  return Object.keys(data).length > 0 ? { name: error.name, message: error.message, data } : { name: error.name, message: error.message };
}

/** An Error carrying a recorded error's name, message and data fields. */
export function decodeError(encoded: EncodedError): Error {
  const error = new Error(encoded.message);
  Object.defineProperty(error, "name", { value: encoded.name, enumerable: false, configurable: true, writable: true });
  if (encoded.data) Object.assign(error, decodeValue(encoded.data));
  return error;
}
