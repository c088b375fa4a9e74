/**
 * The analysis time budget, counted in this process's CPU time: wall time would count the time other
 * processes take the CPU away (a loaded CI machine), and a command quick to analyse would then come
 * out opaque. Reading CPU time is a system call, so it is read only once the cheap wall clock says
 * the budget could be spent (CPU time of the analysing thread cannot run ahead of wall time).
 */
export class AnalysisBudget {
  readonly #wallDeadline: number;
  readonly #cpuDeadline: number;

  constructor(ms: number) {
    this.#wallDeadline = performance.now() + ms;
    this.#cpuDeadline = cpuMs() + ms;
  }

  /** Whether the budget is spent. */
  spent(): boolean {
    return performance.now() > this.#wallDeadline && cpuMs() > this.#cpuDeadline;
  }
}

/** This process's CPU time in ms. */
export function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}
