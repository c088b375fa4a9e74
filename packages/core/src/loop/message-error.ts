import { APICallError } from "ai";
import type { MessageError } from "@lathe/message";
import { causes } from "../context/provider-errors.js";

/** The error recorded when a run is aborted. */
export function abortedError(reason?: unknown): MessageError {
  const text = typeof reason === "string" ? reason : reason instanceof Error ? reason.message : "";
  return { name: "AbortedError", message: text && text !== "aborted" ? `The run was aborted: ${text}` : "The run was aborted." };
}

/**
 * Converts anything thrown during a run into an error that can be stored on the message. The cause
 * chain is kept: a stream cut mid-response surfaces as the AI SDK's "Failed to process successful
 * response" (status 200), and only its causes (`terminated`, `ECONNRESET: other side closed`) say
 * what happened, so they are appended to the message and listed in `data.causes`.
 */
export function toMessageError(error: unknown): MessageError {
  const { base, below } = namedError(error);
  if (below.length === 0) return base;
  const untold = newCauses(base.message, below);
  return {
    ...base,
    ...(untold.length > 0 ? { message: `${base.message} (${untold.join(" ← ")})` } : {}),
    data: { ...base.data, causes: below.map(({ name, message, code }) => ({ name, message, ...(code ? { code } : {}) })) },
  };
}

/**
 * A one-line account of an error and its causes, e.g. for a retry's status message: the first line
 * of its message, then the causes it does not already tell.
 */
export function errorSummary(error: unknown): string {
  const { base, below } = namedError(error);
  const first = base.message.split("\n")[0]!.trim();
  const untold = newCauses(first, below);
  return untold.length > 0 ? `${first} (${untold.join(" ← ")})` : first;
}

/**
 * The error a message names — the provider's (the first `APICallError` in the chain), else the
 * thrown one — and the causes below it.
 */
function namedError(error: unknown): { base: MessageError; below: CauseLink[] } {
  const top = causes(error).find((item) => APICallError.isInstance(item)) as APICallError | undefined;
  const base: MessageError = top
    ? {
        name: "ProviderError",
        message: top.message,
        data: {
          statusCode: top.statusCode,
          isRetryable: top.isRetryable,
          url: top.url,
          ...(top.responseBody !== undefined ? { responseBody: top.responseBody } : {}),
        },
      }
    : error instanceof Error
      ? { name: error.name || "UnknownError", message: error.message }
      : { name: "UnknownError", message: typeof error === "string" ? error : safeJson(error) };
  const chain = causeChain(error);
  return { base, below: chain.slice(chain.findIndex((c) => c.error === (top ?? error)) + 1) };
}

/** The causes' descriptions that `told` (and the causes before them) do not already contain. */
function newCauses(told: string, chain: CauseLink[]): string[] {
  const out: string[] = [];
  for (const link of chain) {
    const text = describeCause(link);
    if (!text || told.includes(link.message || text) || out.some((o) => o.includes(link.message || text))) continue;
    out.push(text);
  }
  return out;
}

interface CauseLink {
  error: unknown;
  name: string;
  message: string;
  code?: string;
}

function causeChain(error: unknown): CauseLink[] {
  return causes(error).map((item) => {
    if (item instanceof Error) {
      const code = (item as { code?: unknown }).code;
      return { error: item, name: item.name || "Error", message: item.message, ...(typeof code === "string" ? { code } : {}) };
    }
    return { error: item, name: "UnknownError", message: typeof item === "string" ? item : safeJson(item) };
  });
}

function describeCause(link: CauseLink): string {
  const message = link.message || link.name;
  return link.code && !message.includes(link.code) ? `${link.code}: ${message}` : message;
}

/** JSON of a thrown non-error value; never throws (cycles, BigInt). */
function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** The error a finish reason implies, for steps that ended without a usable answer. */
export function finishError(finishReason: string | undefined): MessageError | undefined {
  switch (finishReason) {
    case "length":
      return { name: "OutputLengthError", message: "The model reached its output limit before it finished." };
    case "content-filter":
      return { name: "ContentFilterError", message: "The provider's content filter stopped the answer." };
    case "error":
      return { name: "ProviderError", message: "The provider ended the step with an error." };
    default:
      return undefined;
  }
}
