import { APICallError } from "ai";

/**
 * How providers say a prompt is longer than the model's context window. Each is matched
 * case-insensitively against everything the error says (messages, response bodies, stream error
 * chunks as JSON), so a gateway that wraps a provider's message is recognised too.
 */
const CONTEXT_OVERFLOW_PATTERNS: readonly RegExp[] = [
  // OpenAI Chat Completions and the OpenAI-compatible servers that copy it (Azure, DeepSeek,
  // OpenRouter "This endpoint's maximum context length is …", older vLLM, Together, Fireworks).
  /context_length_exceeded/i,
  /maximum context length (is|of|has been exceeded)/i,
  // OpenAI Responses API: "Your input exceeds the context window of this model."
  /exceeds the context window/i,
  // OpenAI, a request over a model's input cap below its window (GPT-5: 272,000 of 400,000):
  // "Input tokens exceed the configured limit of 272000 tokens."
  /input tokens exceed the configured limit/i,
  // Groq (and OpenAI's older wording): "Please reduce the length of the messages or completion."
  /reduce the length of the messages/i,
  // Anthropic (also through Bedrock and Vertex): "prompt is too long: 213462 tokens > 200000 maximum",
  // "input length and `max_tokens` exceed context limit: 178959 + 64000 > 200000".
  /prompt is too long/i,
  /input length and `?max_tokens`? exceed context limit/i,
  // Google Gemini / Vertex: "The input token count (1196265) exceeds the maximum number of tokens allowed (1048575)."
  /input token count.*exceeds the maximum/i,
  // Mistral: "Prompt contains 40000 tokens and 0 draft tokens, too large for model with 32768 maximum context length".
  /too large for model with \d+ maximum context length/i,
  // xAI: "This model's maximum prompt length is 131072 but the request contains 537812 tokens."
  /maximum prompt length is \d+/i,
  // Amazon Bedrock (Converse): "Input is too long for requested model."
  /input is too long for requested model/i,
  // llama.cpp server: "the request exceeds the available context size, try increasing it".
  /exceeds the available context size/i,
  // Ollama ("input exceeds context length") and gateways' generic wordings.
  /exceeds? (the )?(model'?s? )?context (window|length|limit)/i,
  // vLLM, newer: "… However, the model's context length is only 1024 tokens … Please reduce the length of the input prompt."
  /context length is only \d+ tokens/i,
  // vLLM, older: "The prompt (total length 25938) is too long to fit into the model (context length 4096)".
  /too long to fit into the model/i,
  /longer than the maximum model length/i,
  // LM Studio: "The number of tokens to keep from the initial prompt is greater than the context length".
  /greater than the context length/i,
  // GitHub Copilot: "prompt token count of 135000 exceeds the limit of 128000".
  /token count of \d+ exceeds the limit/i,
  // MiniMax: "context window exceeds limit"; Moonshot Kimi: "exceeded model token limit".
  /context window exceeds limit/i,
  /exceeded model token limit/i,
];

/** Client-error statuses that mean "try again later": request timeout, conflict, too many requests. */
const RETRYABLE_CLIENT_STATUS = new Set([408, 409, 429]);

/** A 429 (or other error) that no wait fixes: the account's quota or credit is spent. */
const SPENT_QUOTA = /insufficient_quota|credit balance is too low|insufficient[ _](credits?|balance|funds)/i;
const OVERLOADED = /overloaded/i;
const RATE_LIMITED = /rate[ _-]?limit|too many requests|resource[ _-]?exhausted|\bexhausted\b|throttl/i;
/**
 * A service that is down for now, trusted only when the error carries no status (stream error
 * chunks). "Try again" alone is not enough: an invalid key's message says it too.
 */
const UNAVAILABLE = /\b(service|server|model|provider|backend|upstream|engine) (is )?(currently |temporarily )?unavailable\b|temporarily unavailable|"UNAVAILABLE"/i;
/** A status-less error about credentials or access: no wait fixes it, whatever else it says. */
const NOT_AUTHORISED = /invalid[ _-]?(api[ _-]?)?key|incorrect api key|unauthori[sz]ed|authentication|permission[ _]denied|forbidden/i;
const SERVER_ERROR = /server[ _]error|internal[ _]error/i;

/** Codes of network failures worth another attempt (Node's sockets and undici's fetch). */
const NETWORK_CODES = new Set([
  "ECONNRESET",
  "ECONNREFUSED",
  "ETIMEDOUT",
  "EPIPE",
  "EAI_AGAIN",
  "UND_ERR_SOCKET",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
]);
/** Messages of network failures that come without a code ("terminated" is undici's cut stream). */
const NETWORK_MESSAGE = /^(terminated|fetch failed)$|socket hang up|other side closed/i;

/** How deep {@link causes} follows `cause` (and the AI SDK's `RetryError.lastError`). */
const MAX_CAUSE_DEPTH = 6;

/** The error and its causes, outermost first (a few levels deep, cycles cut). */
export function causes(error: unknown): unknown[] {
  const out: unknown[] = [];
  let current = error;
  while (current !== undefined && current !== null && out.length < MAX_CAUSE_DEPTH && !out.includes(current)) {
    out.push(current);
    if (typeof current !== "object") break;
    const { cause, lastError } = current as { cause?: unknown; lastError?: unknown };
    current = cause ?? lastError;
  }
  return out;
}

/** Everything an error says in words: messages, response bodies, strings, and plain objects as JSON. */
function errorText(error: unknown): string {
  const texts: string[] = [];
  for (const item of causes(error)) {
    if (typeof item === "string") texts.push(item);
    else if (item instanceof Error) {
      texts.push(item.message);
      const { responseBody } = item as { responseBody?: unknown };
      if (typeof responseBody === "string") texts.push(responseBody);
    } else if (typeof item === "object") {
      try {
        texts.push(JSON.stringify(item));
      } catch {
        // A cyclic or otherwise unserialisable object says nothing we can read.
      }
    }
  }
  return texts.join("\n");
}

/** Whether the error is (or was caused by) an abort: the run was cancelled or its signal timed out. */
function isAbort(error: unknown): boolean {
  return causes(error).some((item) => {
    const name = typeof item === "object" ? (item as { name?: unknown } | null)?.name : undefined;
    return name === "AbortError" || name === "TimeoutError" || name === "ResponseAborted";
  });
}

/** The first HTTP status found on the error or its causes (`statusCode` of APICallError, else `status`). */
function statusOf(error: unknown): number | undefined {
  for (const item of causes(error)) {
    if (typeof item !== "object" || item === null) continue;
    const { statusCode, status } = item as { statusCode?: unknown; status?: unknown };
    const found = typeof statusCode === "number" ? statusCode : status;
    if (typeof found === "number" && found >= 400) return found;
  }
  return undefined;
}

function isNetworkFailure(error: unknown): boolean {
  return causes(error).some((item) => {
    const code = typeof item === "object" ? (item as { code?: unknown } | null)?.code : undefined;
    if (typeof code === "string" && NETWORK_CODES.has(code)) return true;
    return item instanceof Error && NETWORK_MESSAGE.test(item.message.trim());
  });
}

function saysRetryable(error: unknown): boolean {
  return causes(error).some((item) => APICallError.isInstance(item) && item.isRetryable);
}

/**
 * Whether an error — the AI SDK's `APICallError`, an error chunk from a stream, a plain object or a
 * string — says the prompt is longer than the model's context window, in any of the common
 * providers' wordings. An abort never counts.
 */
export function isContextOverflow(error: unknown): boolean {
  if (error === undefined || error === null || isAbort(error)) return false;
  const text = errorText(error);
  return CONTEXT_OVERFLOW_PATTERNS.some((pattern) => pattern.test(text));
}

/**
 * Whether a failed request is worth sending again, and why in a few words for the status
 * ("Rate limited", "Provider overloaded", "Server error 503", "Connection lost"). Undefined when it
 * is not: aborts, context overflows, a spent quota or credit, and client errors other than 408, 409
 * and 429 unless their body speaks of a rate limit or an overload.
 */
export function retryReason(error: unknown): string | undefined {
  if (error === undefined || error === null || isAbort(error) || isContextOverflow(error)) return undefined;
  const text = errorText(error);
  if (SPENT_QUOTA.test(text)) return undefined;

  const status = statusOf(error);
  if (status !== undefined) {
    if (status === 429) return "Rate limited";
    if (status >= 500) return status === 529 || OVERLOADED.test(text) ? "Provider overloaded" : `Server error ${status}`;
    if (RETRYABLE_CLIENT_STATUS.has(status)) return `Request failed with ${status}`;
    // Some gateways answer a rate limit or an overload with a plain 400; a bare 400/401/403/404 is final.
    if (OVERLOADED.test(text)) return "Provider overloaded";
    if (RATE_LIMITED.test(text)) return "Rate limited";
    return saysRetryable(error) ? "Provider error" : undefined;
  }

  // No status: a stream error chunk, a network failure, or an error the SDK built itself.
  if (isNetworkFailure(error)) return "Connection lost";
  if (NOT_AUTHORISED.test(text)) return undefined;
  if (OVERLOADED.test(text)) return "Provider overloaded";
  if (RATE_LIMITED.test(text)) return "Rate limited";
  if (SERVER_ERROR.test(text)) return "Server error";
  if (UNAVAILABLE.test(text)) return "Provider unavailable";
  return saysRetryable(error) ? "Provider error" : undefined;
}
