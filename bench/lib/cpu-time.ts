// CPU time of a piece of work (user + system of this process), for figures that must not depend on
// how loaded a shared machine is: on a 2-core runner shared with other jobs, wall time of a 10 ms
// call can read 60 ms, while its CPU time stays what the algorithm costs.

/** CPU milliseconds `fn` takes (synchronous work only). */
export function cpuMs(fn: () => unknown): number {
  const start = process.cpuUsage();
  fn();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

/** Median CPU milliseconds of `runs` calls of `fn`, after one warm-up call. */
export function medianCpuMs(fn: () => unknown, runs = 5): number {
  fn();
  const times = Array.from({ length: runs }, () => cpuMs(fn)).sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}
