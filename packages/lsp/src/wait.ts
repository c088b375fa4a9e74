/**
 * Runs `start(done)` and resolves with what it passes to `done`, or `false` when `deadline` (epoch
 * ms) passes or `signal` aborts first. `start` returns its clean-up, run in every case.
 */
export function boundedWait(deadline: number, signal: AbortSignal | undefined, start: (done: (value: boolean) => void) => () => void): Promise<boolean> {
  return new Promise((resolve) => {
    let cleanup = () => {};
    let finished = false;
    const finish = (value: boolean) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      cleanup();
      resolve(value);
    };
    const onAbort = () => finish(false);
    const timer = setTimeout(() => finish(false), Math.max(0, deadline - Date.now()));
    if (signal?.aborted) return finish(false);
    signal?.addEventListener("abort", onAbort, { once: true });
    cleanup = start(finish);
    if (finished) cleanup();
  });
}

/** `promise`, or `undefined` once `deadline` passes or `signal` aborts (the promise goes on unobserved). */
export async function withDeadline<T>(promise: Promise<T>, deadline: number, signal?: AbortSignal): Promise<T | undefined> {
  let value: T | undefined;
  let failure: unknown;
  let failed = false;
  const settled = await boundedWait(deadline, signal, (done) => {
    promise.then(
      (v) => {
        value = v;
        done(true);
      },
      (error: unknown) => {
        failure = error;
        failed = true;
        done(true);
      },
    );
    return () => {};
  });
  if (!settled) {
    promise.catch(() => {});
    return undefined;
  }
  if (failed) throw failure;
  return value;
}
