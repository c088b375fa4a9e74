import { useEffect, useRef } from "react";
import { isUnreachable } from "./api.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * While `active`, calls `attempt` every `everyMs` until it succeeds. A failure other than the
 * server being unreachable (it is back, but refuses) ends the retries and goes to `onRefused`.
 */
export function useRetryWhileUnreachable(active: boolean, attempt: () => Promise<void>, onRefused: (failure: unknown) => void, everyMs = 1000): void {
  // The latest callbacks, so a new render does not restart the wait.
  const latest = useRef({ attempt, onRefused });
  latest.current = { attempt, onRefused };
  useEffect(() => {
    if (!active) return;
    let cancelled = false;
    void (async () => {
      while (!cancelled) {
        await sleep(everyMs);
        if (cancelled) return;
        try {
          await latest.current.attempt();
          return;
        } catch (failure) {
          if (isUnreachable(failure)) continue;
          latest.current.onRefused(failure);
          return;
        }
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [active, everyMs]);
}
