/**
 * The analysis time budget, counted so that a loaded machine does not turn quick analyses opaque:
 * up to `ms` of wall time, then up to `ms` more of this process's CPU time. Reading CPU time is a
 * slow system call, so it is never read while wall time is within the budget (the common case);
 * once wall time is past it, the CPU time used from then on is counted. The CPU time an analysis
 * takes is so at most about twice `ms` on a quiet machine and on a loaded one alike.
 */
export class AnalysisBudget {
  readonly #ms: number;
  readonly #wallDeadline: number;
  #cpuDeadline: number | undefined;

  constructor(ms: number) {
    this.#ms = ms;
    this.#wallDeadline = performance.now() + ms;
  }

  /** Whether the budget is spent. */
  spent(): boolean {
    if (performance.now() <= this.#wallDeadline) return false;
    this.#cpuDeadline ??= cpuMs() + this.#ms;
    return cpuMs() > this.#cpuDeadline;
  }
}

/** This process's CPU time in ms. */
export function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}
