import { describe, it, expect } from "vitest";
import { APICallError } from "ai";
import { RETRY_BASE_DELAY_MS, RETRY_MAX_BACKOFF_MS, retryDelay } from "./retry-delay.js";

const NOW = Date.parse("2025-11-15T12:00:00Z");

function rateLimited(responseHeaders: Record<string, string> | undefined): APICallError {
  return new APICallError({
    message: "Too Many Requests",
    url: "https://api.example.com/v1/chat",
    requestBodyValues: {},
    statusCode: 429,
    responseHeaders,
    responseBody: '{"error":{"type":"rate_limit_error"}}',
    isRetryable: true,
  });
}

describe("retryDelay: backoff", () => {
  it("doubles from 2 s and stops at 30 s", () => {
    expect(RETRY_BASE_DELAY_MS).toBe(2_000);
    expect(RETRY_MAX_BACKOFF_MS).toBe(30_000);
    expect([1, 2, 3, 4, 5, 6, 20].map((attempt) => retryDelay(attempt, new Error("boom"), NOW))).toEqual([2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000]);
  });

  it("treats a nonsense attempt as the first", () => {
    expect(retryDelay(0, undefined, NOW)).toBe(2_000);
    expect(retryDelay(-3, undefined, NOW)).toBe(2_000);
    expect(retryDelay(Number.NaN, undefined, NOW)).toBe(2_000);
  });

  it("backs off when the error carries no headers, or no retry header", () => {
    expect(retryDelay(2, rateLimited(undefined), NOW)).toBe(4_000);
    expect(retryDelay(2, rateLimited({ "content-type": "application/json" }), NOW)).toBe(4_000);
    expect(retryDelay(2, "overloaded", NOW)).toBe(4_000);
    expect(retryDelay(2, { responseHeaders: "retry-after: 5" }, NOW)).toBe(4_000);
  });
});

describe("retryDelay: retry-after-ms", () => {
  it("waits the milliseconds it says, rounded up, whatever the attempt", () => {
    expect(retryDelay(1, rateLimited({ "retry-after-ms": "1500" }), NOW)).toBe(1_500);
    expect(retryDelay(4, rateLimited({ "retry-after-ms": "250.4" }), NOW)).toBe(251);
    expect(retryDelay(1, rateLimited({ "retry-after-ms": "0" }), NOW)).toBe(0);
  });

  it("is not capped by the backoff's cap", () => {
    expect(retryDelay(1, rateLimited({ "retry-after-ms": "45000" }), NOW)).toBe(45_000);
  });

  it("wins over retry-after", () => {
    expect(retryDelay(1, rateLimited({ "retry-after-ms": "700", "retry-after": "9" }), NOW)).toBe(700);
  });

  it("matches the header name in any case", () => {
    expect(retryDelay(1, rateLimited({ "Retry-After-Ms": "900" }), NOW)).toBe(900);
  });

  it("falls through to retry-after, then the backoff, when unparseable or negative", () => {
    expect(retryDelay(1, rateLimited({ "retry-after-ms": "soon", "retry-after": "3" }), NOW)).toBe(3_000);
    expect(retryDelay(1, rateLimited({ "retry-after-ms": "-100" }), NOW)).toBe(2_000);
    expect(retryDelay(2, rateLimited({ "retry-after-ms": "12abc" }), NOW)).toBe(4_000);
    expect(retryDelay(2, rateLimited({ "retry-after-ms": "" }), NOW)).toBe(4_000);
  });
});

describe("retryDelay: retry-after", () => {
  it("reads whole and fractional seconds", () => {
    expect(retryDelay(1, rateLimited({ "retry-after": "7" }), NOW)).toBe(7_000);
    expect(retryDelay(1, rateLimited({ "retry-after": "1.5" }), NOW)).toBe(1_500);
    expect(retryDelay(1, rateLimited({ "Retry-After": " 2 " }), NOW)).toBe(2_000);
  });

  it("reads an HTTP date relative to now", () => {
    const in12s = new Date(NOW + 12_000).toUTCString();
    expect(retryDelay(1, rateLimited({ "retry-after": in12s }), NOW)).toBe(12_000);
  });

  it("retries at once for an HTTP date already past", () => {
    const past = new Date(NOW - 60_000).toUTCString();
    expect(retryDelay(3, rateLimited({ "retry-after": past }), NOW)).toBe(0);
  });

  it("defaults now to the clock", () => {
    const in20s = new Date(Date.now() + 20_000).toUTCString();
    const delay = retryDelay(1, rateLimited({ "retry-after": in20s }));
    expect(delay).toBeGreaterThan(18_000);
    expect(delay).toBeLessThanOrEqual(20_000);
  });

  it("falls back to the backoff for garbage and negative values", () => {
    for (const value of ["soon", "-5", "5s", "foo 2", "", "Infinity"]) {
      expect(retryDelay(3, rateLimited({ "retry-after": value }), NOW), value).toBe(8_000);
    }
  });
});

describe("retryDelay: where headers are found", () => {
  it("reads the headers of a cause", () => {
    const wrapped = new Error("stream failed", { cause: rateLimited({ "retry-after": "4" }) });
    expect(retryDelay(1, wrapped, NOW)).toBe(4_000);
  });

  it("reads the last error of the AI SDK's RetryError shape", () => {
    expect(retryDelay(1, { name: "AI_RetryError", lastError: rateLimited({ "retry-after-ms": "333" }) }, NOW)).toBe(333);
  });

  it("reads a fetch Headers object", () => {
    expect(retryDelay(1, { responseHeaders: new Headers({ "Retry-After": "6" }) }, NOW)).toBe(6_000);
  });

  it("skips an outer error whose headers hold no retry header", () => {
    const outer = Object.assign(new Error("outer"), { responseHeaders: { "x-request-id": "1" }, cause: rateLimited({ "retry-after": "5" }) });
    expect(retryDelay(1, outer, NOW)).toBe(5_000);
  });
});

describe("retryDelay: Google's RetryInfo", () => {
  const body = (delay: string) =>
    JSON.stringify({
      error: {
        code: 429,
        status: "RESOURCE_EXHAUSTED",
        details: [{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: delay }],
      },
    });
  const exhausted = (delay: string, headers?: Record<string, string>) =>
    new APICallError({ message: "Resource exhausted", url: "https://generativelanguage.googleapis.com", requestBodyValues: {}, statusCode: 429, responseHeaders: headers, responseBody: body(delay), isRetryable: true });

  it("waits the retryDelay the body gives when no header does", () => {
    expect(retryDelay(1, exhausted("12s"), NOW)).toBe(12_000);
    expect(retryDelay(3, exhausted("0.5s"), NOW)).toBe(500);
  });

  it("prefers a header, and ignores a malformed retryDelay", () => {
    expect(retryDelay(1, exhausted("12s", { "retry-after": "3" }), NOW)).toBe(3_000);
    expect(retryDelay(2, exhausted("soon"), NOW)).toBe(4_000);
  });
});
