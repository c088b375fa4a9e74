import { z } from "zod";

/**
 * An error recorded on an assistant message, in a form that survives storage.
 * `name` tells the kind: `AbortedError`, `ProviderError`, `OutputLengthError`, `ContentFilterError`,
 * `BudgetExceededError`, `OutputValidationError`, `UnknownError`, …
 */
export const MessageError = z.object({
  name: z.string(),
  message: z.string(),
  /** Extra facts, e.g. `statusCode`, `isRetryable`, `responseBody` for provider errors. */
  data: z.record(z.string(), z.unknown()).optional(),
});
/** An error recorded on an assistant message. */
export type MessageError = z.infer<typeof MessageError>;
