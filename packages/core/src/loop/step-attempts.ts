import type { TokenUsage } from "@lathe/message";
import { errorSummary, toMessageError } from "./message-error.js";
import { isContextOverflow, retryReason } from "../context/provider-errors.js";
import { providerRetryDelay, retryDelay } from "../context/retry-delay.js";
import type { AgentRuntime } from "./runtime.js";
import { sleep } from "../context/sleep.js";
import { processStepStream, type StepStream } from "./stream-processor.js";
import type { TurnRecorder } from "./turn-recorder.js";
import { tokensFromUsage } from "../context/usage.js";
import { streamModelCall } from "./model-call.js";
import type { StepRequest } from "./step-request.js";

/** Default of {@link RetryOptions.maxRetries}. */
export const DEFAULT_MAX_RETRIES = 4;
/** Default of {@link RetryOptions.maxDelayMs}. */
export const DEFAULT_MAX_RETRY_DELAY_MS = 120_000;

/**
 * Streams one step into `recorder`, retrying a request that failed for a passing reason (rate
 * limit, overload, 5xx, lost connection) after the provider's `retry-after` or an exponential
 * backoff. What a failed attempt streamed is taken back out of the message before the next one, so
 * the model never sees half an answer twice; a `retry` part and a `session.status` of type `retry`
 * say what happened. Aborts and context overflows are never retried: the caller handles those.
 *
 * `onDiscardedUsage` receives the usage a failed attempt reported, which is billed all the same, and
 * returns its cost; both are kept on the `retry` part, so the message's usage is what its parts say.
 */
export async function streamStepWithRetries(
  rt: AgentRuntime,
  recorder: TurnRecorder,
  request: StepRequest,
  onDiscardedUsage: (tokens: TokenUsage) => number,
): Promise<StepStream> {
  const maxRetries = rt.options.retry?.maxRetries ?? DEFAULT_MAX_RETRIES;
  const maxDelay = rt.options.retry?.maxDelayMs ?? DEFAULT_MAX_RETRY_DELAY_MS;
  const sessionID = recorder.message.sessionID;
  for (let attempt = 1; ; attempt++) {
    const start = recorder.parts.length;
    const streamed = await processStepStream(streamModelCall(request), recorder, request.offered, request.snapshot);
    const error = streamed.error;
    if (error === undefined || request.signal.aborted || attempt > maxRetries || isContextOverflow(error)) return streamed;
    const reason = retryReason(error);
    if (reason === undefined) return streamed;
    // Only a wait the provider asks for is bounded: a longer one means a spent quota, not a passing
    // limit. Our own backoff (at most 30 s) always runs its course, as `maxRetries` allows.
    const asked = providerRetryDelay(error);
    if (asked !== undefined && asked > maxDelay) return streamed;
    const delay = retryDelay(attempt, error);

    recorder.remove(recorder.parts.slice(start));
    const discarded = streamed.usage ? tokensFromUsage(streamed.usage) : undefined;
    const cost = discarded ? onDiscardedUsage(discarded) : 0;
    const now = Date.now();
    recorder.add({ type: "retry", attempt, error: toMessageError(error), ...(discarded ? { tokens: discarded, cost } : {}), time: { created: now } });
    // The status says why: the reason's kind and the error with its causes (`terminated ← ECONNRESET`).
    rt.emit({ type: "session.status", sessionID, status: { type: "retry", attempt, next: now + delay, message: `${reason}: ${errorSummary(error)}` } });
    try {
      await sleep(delay, request.signal);
    } catch (abort) {
      return { finishReason: undefined, usage: undefined, calls: [], invalidCalls: 0, error: abort };
    }
    rt.emit({ type: "session.status", sessionID, status: { type: "busy" } });
  }
}
