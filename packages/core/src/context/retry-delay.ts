import { causes } from "./provider-errors.js";

/** Base of the exponential backoff used when the provider sends no retry-after header. */
export const RETRY_BASE_DELAY_MS = 2_000;
/** Cap of that backoff (a provider's own header is not capped here; the caller bounds it). */
export const RETRY_MAX_BACKOFF_MS = 30_000;

/** A plain non-negative decimal: "12", "1.5". Anything else (signs, units, "12abc") is not a number of time. */
const DECIMAL = /^\d+(\.\d+)?$/;
/** HTTP dates (IMF-fixdate, RFC 850, asctime) all carry a month name and a time of day. */
const HTTP_DATE = /\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b.*\b\d{1,2}:\d{2}:\d{2}\b|\b\d{1,2}:\d{2}:\d{2}\b.*\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b/i;

/**
 * How long to wait before retry `attempt` (1 for the first retry): the provider's `retry-after-ms`
 * header (milliseconds, may be fractional), else `retry-after` (seconds, or an HTTP date relative to
 * `now`; a date already past means at once), else the `retryDelay` of a Google `RetryInfo` in the
 * response body ("12s"), else 2 s × 2^(attempt−1) capped at 30 s. Header names
 * match in any case; a value that does not parse, or a negative one, falls back to the backoff.
 * Headers are looked for on the error and its causes (`responseHeaders` of the AI SDK's
 * `APICallError`, a plain record or a fetch `Headers`).
 */
export function retryDelay(attempt: number, error: unknown, now: number = Date.now()): number {
  const fromProvider = providerRetryDelay(error, now);
  if (fromProvider !== undefined) return fromProvider;
  const step = Number.isFinite(attempt) ? Math.max(0, Math.floor(attempt) - 1) : 0;
  return Math.min(RETRY_MAX_BACKOFF_MS, RETRY_BASE_DELAY_MS * 2 ** step);
}

/**
 * The wait the provider itself asks for (`retry-after-ms`, `retry-after`, Google's `RetryInfo`), in
 * whole milliseconds; undefined when it asks for none and {@link retryDelay} would back off.
 */
export function providerRetryDelay(error: unknown, now: number = Date.now()): number | undefined {
  return headerDelay(error, now) ?? bodyDelay(error);
}

/** The wait the first cause with a usable retry header asks for, in whole milliseconds. */
function headerDelay(error: unknown, now: number): number | undefined {
  for (const item of causes(error)) {
    const headers = lowerCaseHeaders(item);
    if (!headers) continue;
    const ms = headers.get("retry-after-ms")?.trim();
    if (ms !== undefined && DECIMAL.test(ms)) return Math.ceil(Number(ms));
    const after = headers.get("retry-after")?.trim();
    if (after === undefined) continue;
    if (DECIMAL.test(after)) return Math.ceil(Number(after) * 1_000);
    if (HTTP_DATE.test(after)) {
      const date = Date.parse(after);
      if (Number.isFinite(date)) return Math.max(0, date - now);
    }
  }
  return undefined;
}

/** Google's APIs send the wait in the body, as `RetryInfo` details: `"retryDelay": "12s"`. */
const RETRY_INFO = /"retryDelay"\s*:\s*"(\d+(?:\.\d+)?)s"/;

function bodyDelay(error: unknown): number | undefined {
  for (const item of causes(error)) {
    const body = typeof item === "object" && item !== null ? (item as { responseBody?: unknown }).responseBody : undefined;
    const match = typeof body === "string" ? RETRY_INFO.exec(body) : null;
    if (match) return Math.ceil(Number(match[1]) * 1_000);
  }
  return undefined;
}

/** The `responseHeaders` an error carries, with lower-cased names; undefined when it carries none. */
function lowerCaseHeaders(item: unknown): Map<string, string> | undefined {
  if (typeof item !== "object" || item === null) return undefined;
  const headers = (item as { responseHeaders?: unknown }).responseHeaders;
  if (!headers || typeof headers !== "object") return undefined;
  const entries = headers instanceof Headers ? [...headers.entries()] : Object.entries(headers as Record<string, unknown>);
  const out = new Map<string, string>();
  for (const [name, value] of entries) if (typeof value === "string") out.set(name.toLowerCase(), value);
  return out;
}
