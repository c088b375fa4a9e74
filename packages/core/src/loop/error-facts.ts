// What telemetry may say of an error when contents are off: its name and its code (an HTTP status,
// an errno code), never its message — which quotes files (an edit's near-miss), URLs with their
// credentials (a failed fetch), a structured-output answer that did not validate, a provider's body.
import { APICallError } from "ai";

/** The name and code of an error, read without its message. */
export interface ErrorFacts {
  name: string;
  code?: string | number;
}

/** The facts of any thrown or stored error (an `Error`, a `MessageError`, a plain object). */
export function errorFacts(error: unknown): ErrorFacts {
  const record = typeof error === "object" && error !== null ? (error as Record<string, unknown>) : {};
  const name = error instanceof Error ? error.name : typeof record.name === "string" ? record.name : "Error";
  const data = typeof record.data === "object" && record.data !== null ? (record.data as Record<string, unknown>) : {};
  const code = [record.statusCode, data.statusCode, record.code].find((c): c is string | number => (typeof c === "number" && Number.isFinite(c)) || (typeof c === "string" && /^[\w.-]{1,64}$/.test(c)));
  return code === undefined ? { name } : { name, code };
}

/** The message of an error, for spans that record contents. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === "object" && error !== null && "message" in error) return String((error as { message: unknown }).message);
  return String(error);
}

/**
 * A stand-in for `error` that telemetry integrations (the AI SDK's `@ai-sdk/otel`, which records an
 * error's message and stack) may record when contents are off: the same name, a message made of the
 * name and code alone, no stack, no cause. A provider's `APICallError` stays one (its status code
 * is what the integration reads), without its URL, request or response body.
 */
export function redactedError(error: unknown): Error {
  const facts = errorFacts(error);
  const message = facts.code === undefined ? facts.name : `${facts.name} (${facts.code})`;
  const apiError = APICallError.isInstance(error) ? error : undefined;
  const stand = apiError
    ? new APICallError({ message, url: "", requestBodyValues: undefined, ...(apiError.statusCode !== undefined ? { statusCode: apiError.statusCode } : {}), isRetryable: apiError.isRetryable })
    : new Error(message);
  if (!apiError) stand.name = facts.name;
  stand.stack = undefined;
  return stand;
}
