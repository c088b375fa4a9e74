import { spawn, type ChildProcess, type SpawnOptions } from "node:child_process";

// Process groups alive now. On the host's exit each is killed whole, so no server or formatter (nor
// anything they started) outlives the host; a host killed outright is covered by the servers
// themselves, which watch the `processId` Lathe gives them and their stdin.
const live = new Set<number>();
let hooked = false;

function killAllOnExit(): void {
  for (const pid of live) killGroup(pid, "SIGKILL");
}

/** Spawns `command` as the leader of a new process group, tracked until it exits. */
export function spawnGroup(command: string, args: string[], options: SpawnOptions): ChildProcess {
  const child = spawn(command, args, { ...options, detached: true });
  const pid = child.pid;
  if (pid !== undefined) {
    live.add(pid);
    if (!hooked) {
      hooked = true;
      process.once("exit", killAllOnExit);
    }
    child.once("exit", () => live.delete(pid));
  }
  return child;
}

/** Signals a whole process group (the leader and everything it started); a group already gone is fine. */
export function killGroup(pid: number | undefined, signal: NodeJS.Signals = "SIGKILL"): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}
