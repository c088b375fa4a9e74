import { describe, it, expect } from "vitest";
import { APICallError } from "ai";
import { causes, isContextOverflow, retryReason } from "./provider-errors.js";

function apiError(statusCode: number | undefined, responseBody: string, message = "Request failed", isRetryable?: boolean): APICallError {
  return new APICallError({
    message,
    url: "https://api.example.com/v1/chat",
    requestBodyValues: {},
    statusCode,
    responseHeaders: {},
    responseBody,
    ...(isRetryable === undefined ? {} : { isRetryable }),
  });
}

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

/** Real context-length answers, one or more per provider. */
const OVERFLOWS: Array<[string, unknown]> = [
  [
    "OpenAI chat completions",
    apiError(
      400,
      '{"error":{"message":"This model\'s maximum context length is 128000 tokens. However, your messages resulted in 130512 tokens.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}',
      "This model's maximum context length is 128000 tokens. However, your messages resulted in 130512 tokens.",
    ),
  ],
  ["OpenAI responses", apiError(400, "{}", "Your input exceeds the context window of this model. Please adjust your input and try again.")],
  ["OpenAI stream chunk code only", { error: { code: "context_length_exceeded", message: "" } }],
  ["Anthropic", apiError(400, '{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 213462 tokens > 200000 maximum"}}', "prompt is too long: 213462 tokens > 200000 maximum")],
  [
    "Anthropic with max_tokens",
    { type: "error", error: { type: "invalid_request_error", message: "input length and `max_tokens` exceed context limit: 178959 + 64000 > 200000, decrease input length or `max_tokens` and try again" } },
  ],
  ["Google Gemini", apiError(400, '{"error":{"code":400,"message":"The input token count (1196265) exceeds the maximum number of tokens allowed (1048575).","status":"INVALID_ARGUMENT"}}')],
  ["Mistral", "Prompt contains 40000 tokens and 0 draft tokens, too large for model with 32768 maximum context length"],
  ["xAI", apiError(400, "", "This model's maximum prompt length is 131072 but the request contains 537812 tokens.")],
  ["OpenAI, over GPT-5's input cap", apiError(400, '{"error":{"message":"Input tokens exceed the configured limit of 272000 tokens. Your messages resulted in 274118 tokens.","type":"invalid_request_error","param":"input","code":null}}')],
  ["Groq", apiError(400, '{"error":{"message":"Please reduce the length of the messages or completion.","type":"invalid_request_error"}}')],
  ["OpenRouter", { error: { message: "This endpoint's maximum context length is 65536 tokens. However, you requested about 70000 tokens.", code: 400 } }],
  ["DeepSeek", apiError(400, "", "This model's maximum context length is 65536 tokens. However, you requested 70000 tokens (70000 in the messages, 0 in the completion).")],
  ["Amazon Bedrock", new Error("Input is too long for requested model.")],
  ["Ollama", apiError(500, '{"error":"input exceeds context length"}')],
  ["llama.cpp server", apiError(400, '{"error":{"code":400,"message":"the request exceeds the available context size, try increasing it","type":"exceed_context_size_error"}}')],
  [
    "vLLM, new",
    apiError(400, "", "You passed 1015 input tokens and requested 10 output tokens. However, the model's context length is only 1024 tokens, resulting in a maximum input length of 1014 tokens."),
  ],
  ["vLLM, old", new Error("The prompt (total length 25938) is too long to fit into the model (context length 4096).")],
  ["LM Studio", new Error("The number of tokens to keep from the initial prompt is greater than the context length.")],
  ["GitHub Copilot", apiError(400, "prompt token count of 135000 exceeds the limit of 128000")],
];

describe("isContextOverflow", () => {
  for (const [provider, error] of OVERFLOWS) {
    it(`recognises ${provider}`, () => {
      expect(isContextOverflow(error)).toBe(true);
    });
  }

  it("finds the message in a cause", () => {
    const wrapped = new Error("step failed", { cause: new Error("wrapper", { cause: apiError(400, "prompt is too long: 1 tokens > 0 maximum") }) });
    expect(isContextOverflow(wrapped)).toBe(true);
  });

  it("ignores case", () => {
    expect(isContextOverflow("PROMPT IS TOO LONG")).toBe(true);
  });

  it("does not take rate limits, overloads, other bad requests or nothing for an overflow", () => {
    expect(isContextOverflow(apiError(429, "This request would exceed the rate limit for your organization of 40,000 input tokens per minute"))).toBe(false);
    expect(isContextOverflow({ type: "error", error: { type: "overloaded_error", message: "Overloaded" } })).toBe(false);
    expect(isContextOverflow(apiError(400, '{"error":{"message":"Invalid schema for function \'read\'"}}'))).toBe(false);
    expect(isContextOverflow(new Error("max_tokens must be at most 8192"))).toBe(false);
    expect(isContextOverflow(undefined)).toBe(false);
    expect(isContextOverflow(null)).toBe(false);
    expect(isContextOverflow(42)).toBe(false);
  });

  it("never calls an abort an overflow", () => {
    const abort = Object.assign(new Error("prompt is too long"), { name: "AbortError" });
    expect(isContextOverflow(abort)).toBe(false);
  });

  it("survives a cyclic plain object", () => {
    const chunk: Record<string, unknown> = { type: "error" };
    chunk.self = chunk;
    expect(isContextOverflow(chunk)).toBe(false);
  });
});

describe("retryReason: statuses", () => {
  it("retries 429 as a rate limit", () => {
    expect(retryReason(apiError(429, '{"error":{"type":"rate_limit_error"}}', "Too Many Requests", true))).toBe("Rate limited");
  });

  it("retries 5xx, naming the status, and 529 or an overloaded body as an overload", () => {
    expect(retryReason(apiError(503, "Service Unavailable"))).toBe("Server error 503");
    expect(retryReason(apiError(500, ""))).toBe("Server error 500");
    expect(retryReason(apiError(529, '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}'))).toBe("Provider overloaded");
    expect(retryReason(apiError(503, '{"error":{"code":503,"message":"The model is overloaded. Please try again later.","status":"UNAVAILABLE"}}'))).toBe("Provider overloaded");
  });

  it("retries 408 and 409", () => {
    expect(retryReason(apiError(408, ""))).toBe("Request failed with 408");
    expect(retryReason(apiError(409, ""))).toBe("Request failed with 409");
  });

  it("retries a plain 4xx only when its body speaks of a rate limit or an overload", () => {
    expect(retryReason(apiError(400, '{"error":{"message":"Rate limit reached, slow down"}}'))).toBe("Rate limited");
    expect(retryReason(apiError(400, '{"message":"ThrottlingException: Too many requests"}'))).toBe("Rate limited");
    expect(retryReason(apiError(400, "upstream overloaded"))).toBe("Provider overloaded");
  });

  it("does not retry other client errors", () => {
    expect(retryReason(apiError(400, '{"error":{"message":"Invalid value for tools[0].name"}}'))).toBeUndefined();
    expect(retryReason(apiError(401, '{"error":{"message":"Incorrect API key provided"}}'))).toBeUndefined();
    expect(retryReason(apiError(403, "Forbidden"))).toBeUndefined();
    expect(retryReason(apiError(404, '{"error":{"message":"The model `gpt-9` does not exist or is unavailable to you"}}'))).toBeUndefined();
  });

  it("trusts APICallError.isRetryable on a status it would not retry", () => {
    expect(retryReason(apiError(400, "", "Bad Request", true))).toBe("Provider error");
  });

  it("reads `status` when there is no `statusCode`", () => {
    expect(retryReason(Object.assign(new Error("Too Many Requests"), { status: 429 }))).toBe("Rate limited");
    expect(retryReason(Object.assign(new Error("Not Found"), { status: 404 }))).toBeUndefined();
  });
});

describe("retryReason: stream error chunks and bodies without a status", () => {
  it("retries Anthropic's overloaded chunk", () => {
    expect(retryReason({ type: "error", error: { type: "overloaded_error", message: "Overloaded" } })).toBe("Provider overloaded");
  });

  it("retries OpenAI's rate-limit and server-error chunks", () => {
    expect(retryReason({ error: { code: "rate_limit_exceeded", message: "Rate limit reached for gpt-4o" } })).toBe("Rate limited");
    expect(retryReason({ type: "error", code: "server_error", message: "The server had an error processing your request." })).toBe("Server error");
  });

  it("retries Google's RESOURCE_EXHAUSTED and UNAVAILABLE", () => {
    expect(retryReason({ error: { code: 429, message: "Resource has been exhausted (e.g. check quota).", status: "RESOURCE_EXHAUSTED" } })).toBe("Rate limited");
    expect(retryReason({ error: { code: 503, message: "The service is currently unavailable.", status: "UNAVAILABLE" } })).toBe("Provider unavailable");
  });

  it("retries Google's per-minute quota 429 even though it mentions quota and billing", () => {
    const body =
      '{"error":{"code":429,"message":"You exceeded your current quota, please check your plan and billing details. * Quota exceeded for metric: generate_content_free_tier_requests, limit: 10","status":"RESOURCE_EXHAUSTED"}}';
    expect(retryReason(apiError(429, body))).toBe("Rate limited");
  });

  it("retries plain strings that say to try again", () => {
    expect(retryReason("Too many requests")).toBe("Rate limited");
    expect(retryReason("Service temporarily unavailable, try again")).toBe("Provider unavailable");
    expect(retryReason("The model is currently unavailable")).toBe("Provider unavailable");
  });

  it("does not retry status-less errors that only say to try again, or speak of credentials", () => {
    expect(retryReason("Invalid API key, please check it and try again")).toBeUndefined();
    expect(retryReason({ type: "error", error: { type: "authentication_error", message: "invalid x-api-key" } })).toBeUndefined();
    expect(retryReason("Your request was malformed; please try again")).toBeUndefined();
    expect(retryReason("This feature is temporarily disabled for your organisation")).toBeUndefined();
    expect(retryReason({ error: { message: "Permission denied: the service is unavailable to you", status: "PERMISSION_DENIED" } })).toBeUndefined();
  });

  it("falls back to APICallError.isRetryable when it has no status", () => {
    expect(retryReason(apiError(undefined, "", "Something odd happened", true))).toBe("Provider error");
    expect(retryReason(apiError(undefined, "", "Something odd happened", false))).toBeUndefined();
  });
});

describe("retryReason: network failures", () => {
  it("retries the codes of lost connections, on the error or its cause", () => {
    for (const code of ["ECONNRESET", "ECONNREFUSED", "ETIMEDOUT", "EPIPE", "EAI_AGAIN", "UND_ERR_SOCKET", "UND_ERR_CONNECT_TIMEOUT"]) {
      expect(retryReason(withCode("connect failed", code)), code).toBe("Connection lost");
      expect(retryReason(new TypeError("fetch failed", { cause: withCode("", code) })), code).toBe("Connection lost");
    }
  });

  it("retries undici's wordings without a code", () => {
    expect(retryReason(new TypeError("terminated"))).toBe("Connection lost");
    expect(retryReason(new TypeError("fetch failed"))).toBe("Connection lost");
    expect(retryReason(new Error("socket hang up"))).toBe("Connection lost");
  });

  it("says Connection lost for the SDK's retryable wrapper of a failed fetch", () => {
    const wrapped = new APICallError({
      message: "Cannot connect to API: other side closed",
      url: "https://api.example.com",
      requestBodyValues: {},
      cause: withCode("other side closed", "UND_ERR_SOCKET"),
      isRetryable: true,
    });
    expect(retryReason(wrapped)).toBe("Connection lost");
  });

  it("does not retry other codes", () => {
    expect(retryReason(withCode("no such file", "ENOENT"))).toBeUndefined();
  });
});

describe("retryReason: never retried", () => {
  it("does not retry aborts and timeouts of the run's signal, even wrapping a 503", () => {
    expect(retryReason(new DOMException("This operation was aborted", "AbortError"))).toBeUndefined();
    expect(retryReason(new DOMException("The operation timed out", "TimeoutError"))).toBeUndefined();
    expect(retryReason(AbortSignal.abort().reason)).toBeUndefined();
    expect(retryReason(new Error("request failed", { cause: Object.assign(new Error("aborted"), { name: "AbortError" }) }))).toBeUndefined();
    expect(retryReason({ name: "AbortError", statusCode: 503 })).toBeUndefined();
  });

  it("does not retry a context overflow, even answered as a 5xx or saying to try again", () => {
    for (const [provider, error] of OVERFLOWS) expect(retryReason(error), provider).toBeUndefined();
  });

  it("does not retry a spent quota or credit, even as a 429", () => {
    const openai = apiError(
      429,
      '{"error":{"message":"You exceeded your current quota, please check your plan and billing details.","type":"insufficient_quota","code":"insufficient_quota"}}',
      "You exceeded your current quota, please check your plan and billing details.",
      true,
    );
    expect(retryReason(openai)).toBeUndefined();
    expect(retryReason({ error: { code: "insufficient_quota" } })).toBeUndefined();
    expect(retryReason(apiError(400, '{"type":"error","error":{"message":"Your credit balance is too low to access the Anthropic API."}}'))).toBeUndefined();
    expect(retryReason(apiError(402, '{"error":{"message":"Insufficient credits"}}'))).toBeUndefined();
  });

  it("does not retry nothing, or an error that says nothing retryable", () => {
    expect(retryReason(undefined)).toBeUndefined();
    expect(retryReason(null)).toBeUndefined();
    expect(retryReason(new Error("Invalid JSON in tool arguments"))).toBeUndefined();
    expect(retryReason({ type: "error", error: { type: "invalid_request_error", message: "messages: roles must alternate" } })).toBeUndefined();
  });
});

describe("causes", () => {
  it("lists the error and its causes, outermost first", () => {
    const inner = new Error("inner");
    const middle = new Error("middle", { cause: inner });
    const outer = new Error("outer", { cause: middle });
    expect(causes(outer)).toEqual([outer, middle, inner]);
  });

  it("follows a RetryError's lastError", () => {
    const last = new Error("last");
    const retry = { name: "AI_RetryError", errors: [last], lastError: last };
    expect(causes(retry)).toEqual([retry, last]);
  });

  it("cuts cycles and stops a few levels deep", () => {
    const a: { cause?: unknown } = {};
    const b = { cause: a };
    a.cause = b;
    expect(causes(a)).toEqual([a, b]);
    let deep: unknown = "bottom";
    for (let i = 0; i < 20; i++) deep = { cause: deep };
    expect(causes(deep).length).toBeLessThanOrEqual(6);
  });

  it("holds a string or number alone, and nothing for undefined", () => {
    expect(causes("boom")).toEqual(["boom"]);
    expect(causes(undefined)).toEqual([]);
  });
});
