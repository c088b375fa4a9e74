import { APICallError } from "ai";
import type { MessageError } from "@lathe/message";

/** The error recorded when a run is aborted. */
export function abortedError(reason?: unknown): MessageError {
  const text = typeof reason === "string" ? reason : reason instanceof Error ? reason.message : "";
  return { name: "AbortedError", message: text && text !== "aborted" ? `The run was aborted: ${text}` : "The run was aborted." };
}

/** Converts anything thrown during a run into an error that can be stored on the message. */
export function toMessageError(error: unknown): MessageError {
  if (APICallError.isInstance(error)) {
    return {
      name: "ProviderError",
      message: error.message,
      data: {
        statusCode: error.statusCode,
        isRetryable: error.isRetryable,
        url: error.url,
        ...(error.responseBody !== undefined ? { responseBody: error.responseBody } : {}),
      },
    };
  }
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause;
    if (cause !== undefined && APICallError.isInstance(cause)) return toMessageError(cause);
    return { name: error.name || "UnknownError", message: error.message };
  }
  return { name: "UnknownError", message: typeof error === "string" ? error : JSON.stringify(error) };
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
