/**
 * The clock the analysis time budget is counted on: this process's CPU time in ms. Wall time
 * would count the time other processes take the CPU away (a loaded CI machine), and a command
 * that is quick to analyse would then come out opaque.
 */
export function analysisClock(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}
