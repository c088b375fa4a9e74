/** The longest delay `setTimeout` honours; a longer one (or Infinity) would fire after 1 ms instead. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Resolves after `ms`, or rejects with the signal's reason as soon as it aborts (at once when it
 * already has). Uses the global `setTimeout`, so tests drive it with fake timers; the timer and the
 * abort listener are cleared either way. Negative or NaN delays resolve on the next timer tick; delays
 * beyond setTimeout's range wait as long as it allows (about 24.8 days) rather than firing at once.
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(
      () => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      },
      Number.isNaN(ms) ? 0 : Math.min(MAX_TIMER_MS, Math.max(0, ms)),
    );
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
