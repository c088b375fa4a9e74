// Test helper (not exported): whether a process still runs.
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Waits until none of `pids` runs (or `ms` pass); returns those still alive. */
export async function waitGone(pids: number[], ms: number): Promise<number[]> {
  const until = Date.now() + ms;
  for (;;) {
    const left = pids.filter(alive);
    if (left.length === 0 || Date.now() > until) return left;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
