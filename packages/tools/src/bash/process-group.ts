import { readdirSync, readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";

/** True while any process of the group `pgid` exists (zombies included). */
export function groupExists(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * True while a process of the group is still running. On Linux, zombies (dead, waiting for their
 * new parent to reap them) do not count; elsewhere this is {@link groupExists}.
 */
export function groupRunning(pgid: number): boolean {
  if (!groupExists(pgid)) return false;
  if (process.platform !== "linux") return true;
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return true;
  }
  for (const entry of entries) {
    if (entry.charCodeAt(0) > 57) continue; // not a pid
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue;
    }
    // Fields after the command name: state, ppid, pgrp, …
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(fields[2]) === pgid && fields[0] !== "Z" && fields[0] !== "X") return true;
  }
  return false;
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // already gone
  }
}

async function waitUntil(done: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() >= deadline) return false;
    await sleep(20);
  }
  return true;
}

/**
 * Ends a whole process group: SIGTERM, then SIGKILL to whatever still runs after `graceMs`. Resolves
 * once the group is gone, zombies included (their new parent reaps them, which some container inits
 * do only every few seconds), or after a bounded wait.
 */
export async function killGroup(pgid: number, graceMs: number): Promise<void> {
  signalGroup(pgid, "SIGTERM");
  if (!(await waitUntil(() => !groupRunning(pgid), graceMs))) {
    signalGroup(pgid, "SIGKILL");
    await waitUntil(() => !groupRunning(pgid), 2000);
  }
  await waitUntil(() => !groupExists(pgid), 5000);
}
